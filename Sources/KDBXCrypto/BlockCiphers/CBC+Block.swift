// Default CBC kernels for every BlockCipher (NIST SP 800-38A §6.2): one block at a time through
// the protocol's block functions. AES and Twofish override both with kernels that bind their
// tables once per call; ConstantTimeAES overrides decryption (four blocks per bitsliced pass).

extension BlockCipher {
  /// A straightforward CBC encryption built on ``encryptBlock(_:)-(SIMD16<UInt8>)``.
  @inlinable
  // SAFETY: the caller lends `buffer`; whole blocks are checked by the precondition before any access.
  public func cbcEncrypt(_ buffer: UnsafeMutableRawBufferPointer, chainingValue: inout SIMD16<UInt8>) {
    precondition(buffer.count % 16 == 0, "CBC works on whole blocks")
    var offset = 0
    var chain = chainingValue
    while offset < buffer.count {
      // SAFETY: offset + 16 <= buffer.count because buffer.count is a multiple of 16.
      let plain = buffer.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
      chain = encryptBlock(plain ^ chain)
      buffer.storeBytes(of: chain, toByteOffset: offset, as: SIMD16<UInt8>.self)
      offset += 16
    }
    chainingValue = chain
  }

  /// A straightforward CBC decryption built on ``decryptBlock(_:)-(SIMD16<UInt8>)``.
  @inlinable
  public func cbcDecrypt(_ buffer: UnsafeMutableRawBufferPointer, chainingValue: inout SIMD16<UInt8>) {
    precondition(buffer.count % 16 == 0, "CBC works on whole blocks")
    var offset = 0
    var chain = chainingValue
    while offset < buffer.count {
      // SAFETY: offset + 16 <= buffer.count because buffer.count is a multiple of 16.
      let cipher = buffer.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
      buffer.storeBytes(of: decryptBlock(cipher) ^ chain, toByteOffset: offset, as: SIMD16<UInt8>.self)
      chain = cipher
      offset += 16
    }
    chainingValue = chain
  }
}

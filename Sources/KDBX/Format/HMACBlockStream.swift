import KDBXCrypto

/// Computes the KDBX 4 block MACs, so that the block stream code does not depend on a particular HMAC
/// implementation.
///
/// A conforming type holds the 64-byte HMAC base key `SHA-512(masterSeed ‖ transformedKey ‖ 0x01)` and returns
/// `HMAC-SHA-256(SHA-512(UInt64LE(blockIndex) ‖ baseKey), message)` (KDBX 4.1 specification, "HMAC").
package protocol HMACBlockAuthenticator {
  /// The 32-byte HMAC-SHA-256 of `message` under the key for block `blockIndex`.
  func authenticationCode(blockIndex: UInt64, message: [UInt8]) -> [UInt8]
}

/// The KDBX 4 HMAC block stream that carries the encrypted payload, and the header HMAC (KDBX 4.1 specification,
/// "HMAC"): blocks of a 32-byte HMAC, an `Int32` size and the data, ended by an empty block. Each block's HMAC covers
/// `UInt64LE(index) ‖ Int32LE(size) ‖ data`; the header's uses block index `UInt64.max`.
package enum HMACBlockStream {
  /// Checks the header HMAC stored after the KDBX 4 header. A mismatch means the key is wrong:
  /// ``KDBXError/invalidCredentials``.
  package static func verifyHeader<A: HMACBlockAuthenticator>(
    _ headerBytes: [UInt8], storedHMAC: [UInt8], authenticator: A
  ) throws(KDBXError) {
    let expected = authenticator.authenticationCode(
      blockIndex: FormatConstants.headerHMACBlockIndex, message: headerBytes)
    guard ConstantTime.equals(expected, storedHMAC) else { throw .invalidCredentials }
  }

  /// The header HMAC to store after the header's SHA-256 when writing.
  package static func headerHMAC<A: HMACBlockAuthenticator>(_ headerBytes: [UInt8], authenticator: A) -> [UInt8] {
    authenticator.authenticationCode(blockIndex: FormatConstants.headerHMACBlockIndex, message: headerBytes)
  }

  static func message(index: UInt64, data: ArraySlice<UInt8>) -> [UInt8] {
    var writer = ByteWriter(capacity: data.count + 12)
    writer.write(index)
    writer.write(Int32(truncatingIfNeeded: data.count))
    writer.write(data)
    return writer.bytes
  }

  /// Joins the blocks of `bytes` starting at `offset`, checking each block's HMAC.
  ///
  /// Throws ``KDBXError/corruptedBlock(index:)`` for a failed HMAC, a negative size or a block past the end.
  package static func read<A: HMACBlockAuthenticator>(
    _ bytes: [UInt8], from offset: Int = 0, authenticator: A, options: LoadOptions = .default
  ) throws(KDBXError) -> [UInt8] {
    var reader = ByteReader(bytes, offset: offset)
    var output = [UInt8]()
    var index: UInt64 = 0
    while true {
      do throws(KDBXError) {
        let mac = try reader.readBytes(32)
        let size = try reader.readInt32()
        guard size >= 0 else { throw KDBXError.corruptedBlock(index: index) }
        guard Int(size) <= options.maxPayloadByteCount - output.count else {
          throw KDBXError.limitExceeded(
            what: "payload bytes", value: UInt64(output.count) + UInt64(size),
            limit: UInt64(clamping: options.maxPayloadByteCount))
        }
        let range = try reader.readRange(Int(size))
        let expected = authenticator.authenticationCode(
          blockIndex: index, message: message(index: index, data: bytes[range]))
        guard ConstantTime.equals(expected, mac) else { throw KDBXError.corruptedBlock(index: index) }
        if size == 0 { return output }
        output.append(contentsOf: bytes[range])
      } catch {
        if case .truncated = error { throw .corruptedBlock(index: index) }
        throw error
      }
      index += 1
    }
  }

  /// Splits `payload` into blocks of `blockSize` bytes (KeePass uses 1 MiB), each with its HMAC, and appends the
  /// final empty block.
  package static func write<A: HMACBlockAuthenticator>(
    _ payload: [UInt8], authenticator: A, blockSize: Int = FormatConstants.hmacBlockSize
  ) -> [UInt8] {
    precondition(blockSize > 0 && blockSize <= Int(Int32.max))
    var writer = ByteWriter(capacity: payload.count + (payload.count / blockSize + 2) * 36)
    var index: UInt64 = 0
    var start = 0
    while true {
      let end = min(start + blockSize, payload.count)
      let data = payload[start..<end]
      writer.write(authenticator.authenticationCode(blockIndex: index, message: message(index: index, data: data)))
      writer.write(Int32(truncatingIfNeeded: data.count))
      writer.write(data)
      if data.isEmpty { return writer.bytes }
      index += 1
      start = end
    }
  }
}

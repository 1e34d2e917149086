import KDBXBase
import KDBXCrypto

/// Computes the KDBX 4 block MACs, so that the block stream code does not depend on a particular HMAC
/// implementation.
///
/// A conforming type holds the 64-byte HMAC base key `SHA-512(masterSeed ‖ transformedKey ‖ 0x01)` and returns
/// `HMAC-SHA-256(SHA-512(UInt64LE(blockIndex) ‖ baseKey), message)` (KDBX 4.1 specification, "HMAC").
package protocol HMACBlockAuthenticator: Sendable {
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
  /// Throws ``KDBXError/corruptedBlock(index:)`` for a failed HMAC, a negative size or a block past the end: the
  /// error of the first block that fails, as a reader that checks each block before the next would find it.
  package static func read<A: HMACBlockAuthenticator>(
    _ bytes: [UInt8], from offset: Int = 0, authenticator: A, options: LoadOptions = .default
  ) throws(KDBXError) -> [UInt8] {
    let layout = Layout(bytes, from: offset, options: options)
    let failure = Layout.firstFailure(
      of: layout.blocks, structuralFailure: layout.structuralFailure, in: bytes, authenticator: authenticator)
    if let failure { throw failure }
    return layout.data
  }

  /// The blocks of a stream, found without checking their HMACs, and their data joined: what
  /// ``read(_:from:authenticator:options:)`` then checks with ``firstFailure(of:structuralFailure:in:authenticator:)``.
  package struct Layout: Sendable {
    /// Each block read, the terminating empty block included: where its stored HMAC and its data are.
    package var blocks: [(mac: Range<Int>, data: Range<Int>)] = []
    /// The blocks' data, joined.
    package var data: [UInt8] = []
    /// The structural error of the block after the last one in ``blocks`` (a negative size, a block past the end,
    /// the payload limit), or `nil` when the stream ended with its empty block.
    package var structuralFailure: KDBXError? = nil

    package init(_ bytes: [UInt8], from offset: Int, options: LoadOptions) {
      var reader = ByteReader(bytes, offset: offset)
      var index: UInt64 = 0
      while true {
        do throws(KDBXError) {
          let mac = try reader.readRange(32)
          let size = try reader.readInt32()
          guard size >= 0 else { throw KDBXError.corruptedBlock(index: index) }
          guard Int(size) <= options.maxPayloadByteCount - data.count else {
            throw KDBXError.limitExceeded(
              what: "payload bytes", value: UInt64(data.count) + UInt64(size),
              limit: UInt64(clamping: options.maxPayloadByteCount))
          }
          let range = try reader.readRange(Int(size))
          blocks.append((mac, range))
          if size == 0 { return }
          data.append(contentsOf: bytes[range])
        } catch {
          if case .truncated = error {
            structuralFailure = .corruptedBlock(index: index)
          } else {
            structuralFailure = error
          }
          return
        }
        index += 1
      }
    }

    /// The error of the first of `blocks` (a layout's) whose HMAC fails (``KDBXError/corruptedBlock(index:)``),
    /// else the layout's `structuralFailure`, else `nil`: the stream is intact.
    package static func firstFailure<A: HMACBlockAuthenticator>(
      of blocks: [(mac: Range<Int>, data: Range<Int>)], structuralFailure: KDBXError?, in bytes: [UInt8],
      authenticator: A
    ) -> KDBXError? {
      for (offset, block) in blocks.enumerated() {
        let index = UInt64(offset)
        let expected = authenticator.authenticationCode(
          blockIndex: index, message: message(index: index, data: bytes[block.data]))
        guard ConstantTime.equals(expected, Array(bytes[block.mac])) else { return .corruptedBlock(index: index) }
      }
      return structuralFailure
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

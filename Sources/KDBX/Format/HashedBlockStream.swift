import KDBXBase
import KDBXCrypto

/// The KDBX 3.x hashed block stream, which carries the decrypted payload: blocks of a `UInt32` index, the
/// SHA-256 of the block data, an `Int32` data size and the data, ended by a block of size 0 whose hash is all
/// zeros (KeePass `HashedBlockStream`).
package enum HashedBlockStream {
  /// Joins the blocks of `bytes` (starting at `offset`) after checking every index and hash.
  ///
  /// Throws ``KDBXError/corruptedBlock(index:)`` for a wrong index, a hash mismatch, a negative size or a block that
  /// runs past the end; ``KDBXError/limitExceeded(what:value:limit:)`` past `options.maxPayloadByteCount`.
  package static func read(_ bytes: [UInt8], from offset: Int = 0, options: LoadOptions = .default) throws(KDBXError)
    -> [UInt8]
  {
    try readThroughEnd(bytes, from: offset, options: options).payload
  }

  /// Reads as ``read(_:from:options:)`` does and also returns `end`, the offset just past the terminating empty
  /// block: the bytes from there on are not part of the stream (KDBX 3.x: the cipher padding, if any is left).
  static func readThroughEnd(_ bytes: [UInt8], from offset: Int, options: LoadOptions) throws(KDBXError)
    -> (payload: [UInt8], end: Int)
  {
    var reader = ByteReader(bytes, offset: offset)
    var output = [UInt8]()
    var expectedIndex: UInt32 = 0
    while true {
      let blockIndex = UInt64(expectedIndex)
      do throws(KDBXError) {
        guard try reader.readUInt32() == expectedIndex else { throw KDBXError.corruptedBlock(index: blockIndex) }
        let hash = try reader.readBytes(32)
        let size = try reader.readInt32()
        guard size >= 0 else { throw KDBXError.corruptedBlock(index: blockIndex) }
        if size == 0 {
          guard hash.allSatisfy({ $0 == 0 }) else { throw KDBXError.corruptedBlock(index: blockIndex) }
          return (output, reader.offset)
        }
        guard Int(size) <= options.maxPayloadByteCount - output.count else {
          throw KDBXError.limitExceeded(
            what: "payload bytes", value: UInt64(output.count) + UInt64(size),
            limit: UInt64(clamping: options.maxPayloadByteCount))
        }
        let range = try reader.readRange(Int(size))
        guard ConstantTime.equals(SHA256.hash(bytes[range]).bytes, hash) else {
          throw KDBXError.corruptedBlock(index: blockIndex)
        }
        output.append(contentsOf: bytes[range])
      } catch {
        if case .truncated = error { throw .corruptedBlock(index: blockIndex) }
        throw error
      }
      guard expectedIndex < UInt32.max else { throw .corruptedBlock(index: blockIndex + 1) }
      expectedIndex += 1
    }
  }

  /// Splits `payload` into blocks of `blockSize` bytes (KeePass uses 1 MiB) and appends the final empty block.
  package static func write(_ payload: [UInt8], blockSize: Int = FormatConstants.hashedBlockSize) -> [UInt8] {
    precondition(blockSize > 0 && blockSize <= Int(Int32.max))
    var writer = ByteWriter(capacity: payload.count + (payload.count / blockSize + 2) * 40)
    var index: UInt32 = 0
    var start = 0
    while start < payload.count {
      let end = min(start + blockSize, payload.count)
      writer.write(index)
      writer.write(SHA256.hash(payload[start..<end]).bytes)
      writer.write(Int32(truncatingIfNeeded: end - start))
      writer.write(payload[start..<end])
      index += 1
      start = end
    }
    writer.write(index)
    writer.write([UInt8](repeating: 0, count: 32))
    writer.write(0 as Int32)
    return writer.bytes
  }
}

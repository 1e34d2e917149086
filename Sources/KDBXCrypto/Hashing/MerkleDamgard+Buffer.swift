// Shared streaming logic for the Merkle–Damgård hashes (SHA-1, SHA-256, SHA-512): buffering
// partial blocks and the final padding of FIPS 180-4 §5.1. Internal; each hash supplies its
// compression function.

/// A hash built from a compression function over fixed-size blocks (FIPS 180-4 §5, §6).
protocol MerkleDamgardHash {
  /// Inline storage for one block (a tuple of `UInt64`; its byte size is the block size).
  associatedtype BlockBuffer

  /// The block size in bytes: 64 or 128.
  static var blockSize: Int { get }
  /// Bytes in the message-length field at the end of the padding: 8 or 16 (FIPS 180-4 §5.1).
  static var lengthFieldSize: Int { get }

  var buffer: BlockBuffer { get set }
  var bufferCount: Int { get set }
  var totalByteCount: UInt64 { get set }

  /// Compresses `blockCount` whole blocks that start at `blocks`.
  // SAFETY: (contract) `blocks` holds blockCount * blockSize readable bytes, any alignment, for the call.
  mutating func compress(_ blocks: UnsafeRawPointer, blockCount: Int)
}

extension MerkleDamgardHash {
  /// Absorbs `bytes`: fills the partial block, compresses whole blocks straight from the input,
  /// and keeps the tail.
  @inline(__always)
  // SAFETY: `bytes` is lent for the call. `buffer` is a homogeneous tuple of blockSize bytes (no padding),
  // lent by withUnsafeMutableBytes inside each closure only; each copy and compress below names its bound.
  mutating func absorb(_ bytes: UnsafeRawBufferPointer) {
    guard let start = bytes.baseAddress, bytes.count > 0 else { return }
    let size = Self.blockSize
    var offset = 0
    totalByteCount &+= UInt64(bytes.count)
    if bufferCount > 0 {
      let take = min(size - bufferCount, bytes.count)
      let at = bufferCount
      withUnsafeMutableBytes(of: &buffer) { block in
        // SAFETY: at + take <= size == block.count, and take <= bytes.count.
        UnsafeMutableRawBufferPointer(rebasing: block[at..<at + take])
          .copyMemory(from: UnsafeRawBufferPointer(start: start, count: take))
      }
      bufferCount += take
      offset = take
      guard bufferCount == size else { return }
      compressBuffer()
      bufferCount = 0
    }
    let wholeBlocks = (bytes.count - offset) / size
    if wholeBlocks > 0 {
      // SAFETY: offset + wholeBlocks * size <= bytes.count, so every block read is inside `bytes`.
      compress(start + offset, blockCount: wholeBlocks)
      offset += wholeBlocks * size
    }
    let rest = bytes.count - offset
    if rest > 0 {
      // SAFETY: the buffer's own blockSize bytes, written inside the closures only (bounds noted inside).
      withUnsafeMutableBytes(of: &buffer) { block in
        // SAFETY: rest < size == block.count, and offset + rest == bytes.count.
        UnsafeMutableRawBufferPointer(rebasing: block[0..<rest])
          .copyMemory(from: UnsafeRawBufferPointer(start: start + offset, count: rest))
      }
      bufferCount = rest
    }
  }

  /// Compresses the (full) block buffer. The buffer is copied first so that the compression
  /// function may read `self` freely.
  @inline(__always)
  mutating func compressBuffer() {
    let block = buffer
    // SAFETY: the local copy's blockSize bytes, lent to compress inside the closure only.
    withUnsafeBytes(of: block) { raw in
      // SAFETY: raw.count == blockSize; baseAddress of a value's bytes is never nil for a non-empty type.
      guard let base = raw.baseAddress else { preconditionFailure("block buffer has no address") }
      compress(base, blockCount: 1)
    }
  }

  /// Appends the padding of FIPS 180-4 §5.1.1 / §5.1.2 (a 1 bit, zeros, the bit length as a
  /// big-endian 64- or 128-bit integer) and compresses the last block or two.
  @inline(__always)
  mutating func pad() {
    let size = Self.blockSize
    let lengthAt = size - Self.lengthFieldSize
    let used = bufferCount
    let bitLengthLow = totalByteCount &<< 3
    let bitLengthHigh = totalByteCount >> 61
    // SAFETY: the buffer's own blockSize bytes (a homogeneous tuple, no padding), written inside each
    // closure only; the bounds are noted inside.
    withUnsafeMutableBytes(of: &buffer) { block in
      // SAFETY: used < size == block.count (a full buffer is always compressed at once).
      block[used] = 0x80
      for index in (used + 1)..<size { block[index] = 0 }
    }
    if used + 1 > lengthAt {
      compressBuffer()
      withUnsafeMutableBytes(of: &buffer) { block in
        for index in 0..<size { block[index] = 0 }
      }
    }
    withUnsafeMutableBytes(of: &buffer) { block in
      // SAFETY: the length field occupies the last lengthFieldSize (8 or 16) bytes of the block.
      block.storeBytes(of: bitLengthLow.bigEndian, toByteOffset: size - 8, as: UInt64.self)
      if Self.lengthFieldSize == 16 {
        block.storeBytes(of: bitLengthHigh.bigEndian, toByteOffset: size - 16, as: UInt64.self)
      }
    }
    compressBuffer()
    bufferCount = 0
  }
}

/// 64 bytes of inline block storage.
typealias BlockBuffer64 = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

/// 128 bytes of inline block storage.
typealias BlockBuffer128 = (
  UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
  UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
)

// CBC decryption of a large buffer on several cores (NIST SP 800-38A §6.2: each plaintext block depends only on
// two ciphertext blocks, so the buffer splits into pieces that decrypt independently), and the same for the
// ChaCha20 key stream (RFC 8439 §2.4: block n of the stream depends only on the key, the nonce and n).

import KDBXBase

/// A buffer shared by the pieces of one parallel pass. SAFETY: each piece reads and writes only its own range of
/// the buffer, the ranges are disjoint, and the caller keeps the buffer alive and untouched until every piece has
/// finished (``ParallelWork/forEach(count:maxConcurrency:_:)`` returns only then).
private struct SharedPieces: @unchecked Sendable {
  let base: UnsafeMutableRawPointer
  /// Piece `i` is `bounds[i]..<bounds[i + 1]`.
  let bounds: [Int]

  func piece(_ index: Int) -> UnsafeMutableRawBufferPointer {
    UnsafeMutableRawBufferPointer(start: base + bounds[index], count: bounds[index + 1] - bounds[index])
  }
}

/// The bounds of `pieces` pieces of `count` bytes, each a multiple of `unit` bytes but the last.
private func pieceBounds(count: Int, pieces: Int, unit: Int) -> [Int] {
  let units = (count + unit - 1) / unit
  let unitsPerPiece = (units + pieces - 1) / pieces
  return (0...pieces).map { min($0 * unitsPerPiece * unit, count) }
}

extension CBC {
  /// ``decrypt(_:cipher:iv:)`` (whole blocks, then the PKCS#7 padding removed) in up to `maxConcurrency` pieces run
  /// in parallel, each at least `minimumPieceByteCount` bytes (``decryptBlocksInPieces(_:cipher:iv:maxConcurrency:minimumPieceByteCount:)``).
  ///
  /// - Throws: the errors of ``decrypt(_:cipher:iv:)``, in the same order.
  package static func decrypt(
    _ ciphertext: consuming [UInt8], cipher: Cipher, iv: [UInt8], maxConcurrency: Int, minimumPieceByteCount: Int
  ) throws(CryptoError) -> [UInt8] {
    var bytes = ciphertext
    guard !bytes.isEmpty, bytes.count % 16 == 0 else { throw CryptoError.invalidCiphertextLength(bytes.count) }
    guard let chain = SIMD16<UInt8>(blockBytes: iv) else {
      throw CryptoError.invalidNonceSize(expected: 16, actual: iv.count)
    }
    decryptBlocksInPieces(
      &bytes, cipher: cipher, iv: chain, maxConcurrency: maxConcurrency, minimumPieceByteCount: minimumPieceByteCount)
    try removePadding(&bytes)
    return bytes
  }

  /// Decrypts whole blocks in place (``decrypt(blocksInPlace:)`` from `iv`) in up to `maxConcurrency` pieces run in
  /// parallel, each at least `minimumPieceByteCount` bytes. Leaves the padding in place.
  ///
  /// - Precondition: `bytes.count` is a multiple of 16 (callers validate first).
  package static func decryptBlocksInPieces(
    _ bytes: inout [UInt8], cipher: Cipher, iv: SIMD16<UInt8>, maxConcurrency: Int, minimumPieceByteCount: Int
  ) {
    precondition(bytes.count % 16 == 0, "CBC works on whole blocks")
    let pieces = max(1, min(maxConcurrency, bytes.count / max(minimumPieceByteCount, 16)))
    let bounds = pieceBounds(count: bytes.count, pieces: pieces, unit: 16)
    // SAFETY: the array's own storage, used only inside the closure; ParallelWork.forEach returns after
    // every piece finished, so no piece outlives it. pieceBounds is non-decreasing from 0 and clamped to the count,
    // so the pieces are disjoint ranges of the buffer (see SharedPieces).
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      // Each piece's chaining value is the ciphertext block before it, read before any piece overwrites it.
      // SAFETY: bounds[i] - 16 >= 0 for i >= 1 with a non-empty piece before it, and < buffer.count.
      let chains = (0..<pieces).map { index in
        index == 0 || bounds[index] == 0
          ? iv : buffer.loadUnaligned(fromByteOffset: bounds[index] - 16, as: SIMD16<UInt8>.self)
      }
      let shared = SharedPieces(base: base, bounds: bounds)
      ParallelWork.forEach(count: pieces, maxConcurrency: pieces) { index in
        var chain = chains[index]
        cipher.cbcDecrypt(shared.piece(index), chainingValue: &chain)
      }
    }
  }
}

extension ChaCha20 {
  /// XORs `bytes` with the key stream of `key` and `nonce` from block `counter` (RFC 8439 §2.4), in up to
  /// `maxConcurrency` pieces run in parallel, each at least `minimumPieceByteCount` bytes.
  ///
  /// - Throws: ``CryptoError`` for a key or nonce of the wrong length, or a buffer longer than the 32-bit block
  ///   counter reaches from `counter`.
  package static func applyInPieces(
    to bytes: inout [UInt8], key: [UInt8], nonce: [UInt8], counter: UInt32 = 0, maxConcurrency: Int,
    minimumPieceByteCount: Int
  ) throws(CryptoError) {
    var whole = try ChaCha20(key: key, nonce: nonce, counter: counter)
    let pieces = max(1, min(maxConcurrency, bytes.count / max(minimumPieceByteCount, 64)))
    guard pieces > 1 else { return try whole.apply(to: &bytes) }
    // The whole buffer's length is checked against the counter once (as `apply` does); each piece then starts at
    // its own block.
    let blocks = UInt64(bytes.count / 64) + (bytes.count % 64 == 0 ? 0 : 1)
    guard UInt64(counter) + blocks <= 1 << 32 else { throw CryptoError.counterOverflow }
    let bounds = pieceBounds(count: bytes.count, pieces: pieces, unit: 64)
    var streams: [ChaCha20] = []
    for index in 0..<pieces {
      streams.append(try ChaCha20(key: key, nonce: nonce, counter: counter &+ UInt32(bounds[index] / 64)))
    }
    let starts = streams
    // SAFETY: the array's own storage, used only inside the closure; ParallelWork.forEach returns after
    // every piece finished, so no piece outlives it. pieceBounds is non-decreasing from 0 and clamped to the count,
    // so the pieces are disjoint ranges of the buffer (see SharedPieces).
    bytes.withUnsafeMutableBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      let shared = SharedPieces(base: base, bounds: bounds)
      ParallelWork.forEach(count: pieces, maxConcurrency: pieces) { index in
        var stream = starts[index]
        stream.applyUnchecked(to: shared.piece(index))
      }
    }
  }
}

// The Argon2 pre-hash H0 (RFC 9106 §3.2 step 1) and the variable-length hash H' (RFC 9106 §3.3).

extension Argon2 {
  /// RFC 9106 §3.2 step 1: the 64-byte pre-hashing digest
  /// `H0 = H^64(LE32(p) || LE32(T) || LE32(m) || LE32(t) || LE32(v) || LE32(y) || LE32(len(P)) || P ||
  /// LE32(len(S)) || S || LE32(len(K)) || K || LE32(len(X)) || X)`.
  ///
  /// The caller has checked that the password and salt lengths fit in 32 bits.
  static func preHash(password: [UInt8], salt: [UInt8], parameters: Parameters) -> [UInt8] {
    var hasher = BLAKE2b(validatedOutputByteCount: 64)
    hasher.updateLE32(parameters.lanes)
    hasher.updateLE32(parameters.outputLength)
    hasher.updateLE32(parameters.memoryKiB)
    hasher.updateLE32(parameters.iterations)
    hasher.updateLE32(Int(parameters.version.rawValue))
    hasher.updateLE32(Int(parameters.variant.rawValue))
    for field in [password, salt, parameters.secret, parameters.associatedData] {
      hasher.updateLE32(field.count)
      hasher.update(field)
    }
    return hasher.finalize()
  }

  /// RFC 9106 §3.3: the variable-length hash `H'^T(input)` for any `T >= 1`.
  ///
  /// For `T <= 64` it is `H^T(LE32(T) || input)`. Longer outputs chain 64-byte BLAKE2b digests and keep
  /// the first 32 bytes of each, except the last one, which is `T - 32r` bytes long.
  static func variableLengthHash(_ input: [UInt8], outputByteCount: Int) -> [UInt8] {
    precondition(outputByteCount >= 1 && UInt64(outputByteCount) <= UInt64(UInt32.max))
    if outputByteCount <= 64 {
      var hasher = BLAKE2b(validatedOutputByteCount: outputByteCount)
      hasher.updateLE32(outputByteCount)
      hasher.update(input)
      return hasher.finalize()
    }
    // r = ceil(T / 32) - 2
    let r = (outputByteCount + 31) / 32 - 2
    var out = [UInt8]()
    out.reserveCapacity(outputByteCount)
    var hasher = BLAKE2b(validatedOutputByteCount: 64)
    hasher.updateLE32(outputByteCount)
    hasher.update(input)
    var v = hasher.finalize()
    out.append(contentsOf: v[0..<32])
    if r >= 2 {
      for _ in 2...r {
        var next = BLAKE2b(validatedOutputByteCount: 64)
        next.update(v)
        v = next.finalize()
        out.append(contentsOf: v[0..<32])
      }
    }
    var last = BLAKE2b(validatedOutputByteCount: outputByteCount - 32 * r)
    last.update(v)
    out.append(contentsOf: last.finalize())
    return out
  }
}

extension BLAKE2b {
  /// Absorbs `value` as a 32-bit little-endian integer (RFC 9106 §2: LE32). `value` fits in 32 bits.
  mutating func updateLE32(_ value: Int) {
    let word = UInt32(truncatingIfNeeded: value)
    update([
      UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word >> 16),
      UInt8(truncatingIfNeeded: word >> 24),
    ])
  }
}

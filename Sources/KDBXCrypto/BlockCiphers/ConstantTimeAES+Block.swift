// Bulk operations of the bitsliced AES: up to four blocks per pass.

/// The round keys bound to a pointer.
@usableFromInline
struct BitslicedAESKernel {
  // SAFETY: bound by withKernel to the 120-word bitsliced schedule for its closure only; never escapes it.
  let keys: UnsafePointer<UInt64>

  @inline(__always)
  func roundKey(_ round: Int) -> AESPlanes {
    // SAFETY: round <= 14, so 8 * round + 7 < 120, the size of the schedule.
    let k = keys + 8 * round
    return AESPlanes(q0: k[0], q1: k[1], q2: k[2], q3: k[3], q4: k[4], q5: k[5], q6: k[6], q7: k[7])
  }

  /// FIPS 197 §5.1 Cipher on four lanes.
  @inline(__always)
  func encrypt(_ state: inout AESPlanes) {
    var p = state ^ roundKey(0)
    for round in 1..<14 {
      p.subBytes()
      p.shiftRows()
      p.mixColumns()
      p = p ^ roundKey(round)
    }
    p.subBytes()
    p.shiftRows()
    state = p ^ roundKey(14)
  }

  /// FIPS 197 §5.3 InvCipher on four lanes.
  @inline(__always)
  func decrypt(_ state: inout AESPlanes) {
    var p = state ^ roundKey(14)
    var round = 13
    while round >= 1 {
      p.inverseShiftRows()
      p.inverseSubBytes()
      p = p ^ roundKey(round)
      p.inverseMixColumns()
      round -= 1
    }
    p.inverseShiftRows()
    p.inverseSubBytes()
    state = p ^ roundKey(0)
  }

  /// Loads `count` (1...4) blocks from `pointer` into lanes 0..<count.
  @inline(__always)
  // SAFETY: callers pass base + offset with offset + 16 * count <= buffer.count (count = min(4, rest / 16));
  // the loads are unaligned.
  static func load(_ pointer: UnsafeRawPointer, count: Int) -> AESPlanes {
    var planes = AESPlanes()
    for slot in 0..<count {
      // SAFETY: callers pass 16 * count readable bytes.
      let low = UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: 16 * slot, as: UInt64.self))
      let high = UInt64(littleEndian: pointer.loadUnaligned(fromByteOffset: 16 * slot + 8, as: UInt64.self))
      AESBitslice.insert(low: low, high: high, slot: slot, into: &planes)
    }
    return planes
  }

  /// Stores lanes 0..<count to `pointer`.
  @inline(__always)
  static func store(_ planes: AESPlanes, to pointer: UnsafeMutableRawPointer, count: Int) {
    for slot in 0..<count {
      let (low, high) = AESBitslice.extract(slot: slot, from: planes)
      // SAFETY: callers pass 16 * count writable bytes.
      pointer.storeBytes(of: low.littleEndian, toByteOffset: 16 * slot, as: UInt64.self)
      pointer.storeBytes(of: high.littleEndian, toByteOffset: 16 * slot + 8, as: UInt64.self)
    }
  }
}

extension ConstantTimeAES {
  @inline(__always)
  func withKernel<R>(_ body: (BitslicedAESKernel) -> R) -> R {
    // SAFETY: the schedule is immutable, has 120 words and outlives the closure.
    roundKeys.withUnsafeBufferPointer { keys in
      guard let base = keys.baseAddress else { preconditionFailure("the AES key schedule is never empty") }
      return body(BitslicedAESKernel(keys: base))
    }
  }

  /// Encrypts whole blocks in place in ECB mode, four at a time.
  ///
  /// - Precondition: `buffer.count` is a multiple of 16.
  public func encryptBlocks(_ buffer: UnsafeMutableRawBufferPointer) {
    precondition(buffer.count % 16 == 0, "ECB works on whole blocks")
    guard let base = buffer.baseAddress else { return }
    withKernel { kernel in
      var offset = 0
      // SAFETY: count blocks from offset lie inside the buffer (offset + 16 * count <= buffer.count).
      while offset < buffer.count {
        let count = min(4, (buffer.count - offset) / 16)
        var planes = BitslicedAESKernel.load(base + offset, count: count)
        kernel.encrypt(&planes)
        BitslicedAESKernel.store(planes, to: base + offset, count: count)
        offset += 16 * count
      }
    }
  }

  /// Decrypts whole blocks in place in ECB mode, four at a time.
  ///
  /// - Precondition: `buffer.count` is a multiple of 16.
  // SAFETY: the precondition (whole blocks) is checked before `base` is used; bounds noted inside.
  public func decryptBlocks(_ buffer: UnsafeMutableRawBufferPointer) {
    precondition(buffer.count % 16 == 0, "ECB works on whole blocks")
    guard let base = buffer.baseAddress else { return }
    withKernel { kernel in
      var offset = 0
      // SAFETY: as in encryptBlocks.
      while offset < buffer.count {
        let count = min(4, (buffer.count - offset) / 16)
        var planes = BitslicedAESKernel.load(base + offset, count: count)
        kernel.decrypt(&planes)
        BitslicedAESKernel.store(planes, to: base + offset, count: count)
        offset += 16 * count
      }
    }
  }

  /// CBC decryption in place (NIST SP 800-38A §6.2): four blocks per bitsliced pass.
  // SAFETY: the precondition (whole blocks) is checked before `base` is used; bounds noted inside.
  public func cbcDecrypt(_ buffer: UnsafeMutableRawBufferPointer, chainingValue: inout SIMD16<UInt8>) {
    precondition(buffer.count % 16 == 0, "CBC works on whole blocks")
    guard let base = buffer.baseAddress else { return }
    var chain = chainingValue
    withKernel { kernel in
      var offset = 0
      // SAFETY: count blocks from offset lie inside the buffer; `saved` holds 4 blocks.
      while offset < buffer.count {
        let count = min(4, (buffer.count - offset) / 16)
        var saved = (SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>(), SIMD16<UInt8>())
        withUnsafeMutableBytes(of: &saved) {
          $0.copyMemory(from: UnsafeRawBufferPointer(start: base + offset, count: 16 * count))
        }
        var planes = BitslicedAESKernel.load(base + offset, count: count)
        kernel.decrypt(&planes)
        BitslicedAESKernel.store(planes, to: base + offset, count: count)
        for slot in 0..<count {
          let at = offset + 16 * slot
          let plain = base.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self) ^ chain
          base.storeBytes(of: plain, toByteOffset: at, as: SIMD16<UInt8>.self)
          // SAFETY: `saved` is a tuple of 4 SIMD16<UInt8> (64 contiguous bytes) and slot < count <= 4.
          chain = withUnsafeBytes(of: saved) { $0.loadUnaligned(fromByteOffset: 16 * slot, as: SIMD16<UInt8>.self) }
        }
        offset += 16 * count
      }
    }
    chainingValue = chain
  }
}

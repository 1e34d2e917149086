// Salsa20/20 kernels (Salsa20 specification §3-§10): a scalar reference block function, a
// four-block SIMD4 kernel (lane i computes block counter + i), a nine-block kernel (eight SIMD8
// lanes plus one block in general-purpose registers, interleaved; see ChaCha20+Block.swift for
// why), and the keystream bookkeeping.

extension Salsa20 {
  /// The initial state for block `counter`: sigma, key, nonce and counter (specification §10).
  func initialState(counter: UInt64) -> SIMD16<UInt32> {
    var x = SIMD16<UInt32>()
    x[0] = 0x6170_7865
    x[5] = 0x3320_646e
    x[10] = 0x7962_2d32
    x[15] = 0x6b20_6574
    for i in 0..<4 {
      x[1 + i] = keyWords[i]
      x[11 + i] = keyWords[4 + i]
    }
    x[6] = nonceWords[0]
    x[7] = nonceWords[1]
    x[8] = UInt32(truncatingIfNeeded: counter)
    x[9] = UInt32(truncatingIfNeeded: counter >> 32)
    return x
  }

  /// The Salsa20 hash of the block's initial state, written plainly (the reference kernel).
  func referenceBlock(counter: UInt64) -> SIMD16<UInt32> {
    let initial = initialState(counter: counter)
    var x = initial
    func quarterRound(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
      x[b] ^= (x[a] &+ x[d]).rotatedLeft(by: 7)
      x[c] ^= (x[b] &+ x[a]).rotatedLeft(by: 9)
      x[d] ^= (x[c] &+ x[b]).rotatedLeft(by: 13)
      x[a] ^= (x[d] &+ x[c]).rotatedLeft(by: 18)
    }
    for _ in 0..<10 {
      // Column round (§5), then row round (§4).
      quarterRound(0, 4, 8, 12)
      quarterRound(5, 9, 13, 1)
      quarterRound(10, 14, 2, 6)
      quarterRound(15, 3, 7, 11)
      quarterRound(0, 1, 2, 3)
      quarterRound(5, 6, 7, 4)
      quarterRound(10, 11, 8, 9)
      quarterRound(15, 12, 13, 14)
    }
    return x &+ initial
  }

  /// Four consecutive blocks starting at `counter`, one per lane.
  @inline(__always)
  func fourBlocks(counter: UInt64) -> StreamLanes {
    let c0 = SIMD4<UInt32>(repeating: 0x6170_7865)
    let c5 = SIMD4<UInt32>(repeating: 0x3320_646e)
    let c10 = SIMD4<UInt32>(repeating: 0x7962_2d32)
    let c15 = SIMD4<UInt32>(repeating: 0x6b20_6574)
    let k1 = SIMD4(repeating: keyWords[0])
    let k2 = SIMD4(repeating: keyWords[1])
    let k3 = SIMD4(repeating: keyWords[2])
    let k4 = SIMD4(repeating: keyWords[3])
    let k11 = SIMD4(repeating: keyWords[4])
    let k12 = SIMD4(repeating: keyWords[5])
    let k13 = SIMD4(repeating: keyWords[6])
    let k14 = SIMD4(repeating: keyWords[7])
    let n6 = SIMD4(repeating: nonceWords[0])
    let n7 = SIMD4(repeating: nonceWords[1])
    let low = UInt32(truncatingIfNeeded: counter)
    let high = UInt32(truncatingIfNeeded: counter >> 32)
    let lows = SIMD4(repeating: low) &+ SIMD4(0, 1, 2, 3)
    // A lane whose low word wrapped below `low` carries into the high word.
    // SAFETY: SIMDMask<SIMD4<UInt32>> is stored as a SIMD4<Int32> (16 bytes, lanes 0 or -1), so the value cast
    // gives all-ones or zero lanes; unsafeBitCast also traps on a size mismatch.
    let carry = SIMD4<UInt32>(repeating: 1) & unsafeBitCast(lows .< SIMD4(repeating: low), to: SIMD4<UInt32>.self)
    let highs = SIMD4(repeating: high) &+ carry
    var (x0, x1, x2, x3, x4, x5, x6, x7) = (c0, k1, k2, k3, k4, c5, n6, n7)
    var (x8, x9, x10, x11, x12, x13, x14, x15) = (lows, highs, c10, k11, k12, k13, k14, c15)
    @inline(__always) func qr(
      _ a: inout SIMD4<UInt32>, _ b: inout SIMD4<UInt32>, _ c: inout SIMD4<UInt32>, _ d: inout SIMD4<UInt32>
    ) {
      b ^= rotl(a &+ d, 7)
      c ^= rotl(b &+ a, 9)
      d ^= rotl(c &+ b, 13)
      a ^= rotl(d &+ c, 18)
    }
    for _ in 0..<10 {
      qr(&x0, &x4, &x8, &x12)
      qr(&x5, &x9, &x13, &x1)
      qr(&x10, &x14, &x2, &x6)
      qr(&x15, &x3, &x7, &x11)
      qr(&x0, &x1, &x2, &x3)
      qr(&x5, &x6, &x7, &x4)
      qr(&x10, &x11, &x8, &x9)
      qr(&x15, &x12, &x13, &x14)
    }
    return StreamLanes(
      x: (
        x0 &+ c0, x1 &+ k1, x2 &+ k2, x3 &+ k3, x4 &+ k4, x5 &+ c5, x6 &+ n6, x7 &+ n7, x8 &+ lows, x9 &+ highs,
        x10 &+ c10, x11 &+ k11, x12 &+ k12, x13 &+ k13, x14 &+ k14, x15 &+ c15
      ))
  }

  /// Nine consecutive blocks starting at `counter` XORed into 576 bytes at `pointer`: blocks
  /// counter...counter+7 in SIMD8 lanes, block counter+8 in scalar words, in one round loop.
  @inline(__always)
  // SAFETY: the caller (apply(to:)) passes base + offset with offset + 576 <= buffer.count.
  func nineBlocks(counter: UInt64, xorInto pointer: UnsafeMutableRawPointer) {
    let c0 = SIMD8<UInt32>(repeating: 0x6170_7865)
    let c5 = SIMD8<UInt32>(repeating: 0x3320_646e)
    let c10 = SIMD8<UInt32>(repeating: 0x7962_2d32)
    let c15 = SIMD8<UInt32>(repeating: 0x6b20_6574)
    let k1 = SIMD8(repeating: keyWords[0])
    let k2 = SIMD8(repeating: keyWords[1])
    let k3 = SIMD8(repeating: keyWords[2])
    let k4 = SIMD8(repeating: keyWords[3])
    let k11 = SIMD8(repeating: keyWords[4])
    let k12 = SIMD8(repeating: keyWords[5])
    let k13 = SIMD8(repeating: keyWords[6])
    let k14 = SIMD8(repeating: keyWords[7])
    let n6 = SIMD8(repeating: nonceWords[0])
    let n7 = SIMD8(repeating: nonceWords[1])
    let low = UInt32(truncatingIfNeeded: counter)
    let high = UInt32(truncatingIfNeeded: counter >> 32)
    let lows = SIMD8(repeating: low) &+ SIMD8(0, 1, 2, 3, 4, 5, 6, 7)
    // A lane whose low word wrapped below `low` carries into the high word.
    // SAFETY: as in fourBlocks: the mask is stored as SIMD8<Int32> lanes of 0 or -1 (32 bytes), a value cast.
    let carry = SIMD8<UInt32>(repeating: 1) & unsafeBitCast(lows .< SIMD8(repeating: low), to: SIMD8<UInt32>.self)
    let highs = SIMD8(repeating: high) &+ carry
    var (x0, x1, x2, x3, x4, x5, x6, x7) = (c0, k1, k2, k3, k4, c5, n6, n7)
    var (x8, x9, x10, x11, x12, x13, x14, x15) = (lows, highs, c10, k11, k12, k13, k14, c15)
    // The ninth block, in general-purpose registers.
    let ninth = counter &+ 8
    let initial = ScalarLanes(
      x: (
        0x6170_7865, keyWords[0], keyWords[1], keyWords[2], keyWords[3], 0x3320_646e, nonceWords[0], nonceWords[1],
        UInt32(truncatingIfNeeded: ninth), UInt32(truncatingIfNeeded: ninth >> 32), 0x7962_2d32, keyWords[4],
        keyWords[5], keyWords[6], keyWords[7], 0x6b20_6574
      ))
    var (y0, y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12, y13, y14, y15) = initial.x
    @inline(__always) func qr(
      _ a: inout SIMD8<UInt32>, _ b: inout SIMD8<UInt32>, _ c: inout SIMD8<UInt32>, _ d: inout SIMD8<UInt32>
    ) {
      b ^= rotl(a &+ d, 7)
      c ^= rotl(b &+ a, 9)
      d ^= rotl(c &+ b, 13)
      a ^= rotl(d &+ c, 18)
    }
    @inline(__always) func qr(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
      b ^= (a &+ d).rotatedLeft(by: 7)
      c ^= (b &+ a).rotatedLeft(by: 9)
      d ^= (c &+ b).rotatedLeft(by: 13)
      a ^= (d &+ c).rotatedLeft(by: 18)
    }
    for _ in 0..<10 {
      // Vector and scalar quarter rounds alternate so both kinds of execution unit stay busy.
      qr(&x0, &x4, &x8, &x12)
      qr(&y0, &y4, &y8, &y12)
      qr(&x5, &x9, &x13, &x1)
      qr(&y5, &y9, &y13, &y1)
      qr(&x10, &x14, &x2, &x6)
      qr(&y10, &y14, &y2, &y6)
      qr(&x15, &x3, &x7, &x11)
      qr(&y15, &y3, &y7, &y11)
      qr(&x0, &x1, &x2, &x3)
      qr(&y0, &y1, &y2, &y3)
      qr(&x5, &x6, &x7, &x4)
      qr(&y5, &y6, &y7, &y4)
      qr(&x10, &x11, &x8, &x9)
      qr(&y10, &y11, &y8, &y9)
      qr(&x15, &x12, &x13, &x14)
      qr(&y15, &y12, &y13, &y14)
    }
    // SAFETY: callers pass 576 writable bytes.
    StreamLanes.xorNineBlocks(
      (
        x0 &+ c0, x1 &+ k1, x2 &+ k2, x3 &+ k3, x4 &+ k4, x5 &+ c5, x6 &+ n6, x7 &+ n7, x8 &+ lows, x9 &+ highs,
        x10 &+ c10, x11 &+ k11, x12 &+ k12, x13 &+ k13, x14 &+ k14, x15 &+ c15
      ),
      ninth: ScalarLanes(x: (y0, y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12, y13, y14, y15)).adding(initial),
      into: pointer)
  }

  /// XORs the keystream into a raw buffer, continuing where the previous call stopped.
  public mutating func apply(to buffer: UnsafeMutableRawBufferPointer) {
    // SAFETY: `buffer` is lent by the caller for this call; `pending` is a SIMD16<UInt32> (64 bytes), read
    // inside its closure only. Each write below names its bound.
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    var offset = 0
    if pendingCount > 0 {
      let take = min(pendingCount, buffer.count)
      withUnsafeBytes(of: pending) { block in
        // SAFETY: 64 - pendingCount + i < 64 and i < take <= buffer.count.
        for i in 0..<take {
          base.storeBytes(
            of: base.load(fromByteOffset: i, as: UInt8.self) ^ block[64 - pendingCount + i], toByteOffset: i,
            as: UInt8.self)
        }
      }
      pendingCount -= take
      offset = take
    }
    while buffer.count - offset >= 576 {
      // SAFETY: offset + 576 <= buffer.count.
      nineBlocks(counter: nextBlock, xorInto: base + offset)
      nextBlock &+= 9
      offset += 576
    }
    while buffer.count - offset >= 256 {
      // SAFETY: offset + 256 <= buffer.count.
      fourBlocks(counter: nextBlock).write(to: base + offset, xor: true)
      nextBlock &+= 4
      offset += 256
    }
    let rest = buffer.count - offset
    guard rest > 0 else { return }
    var keystream = (SIMD16<UInt32>(), SIMD16<UInt32>(), SIMD16<UInt32>(), SIMD16<UInt32>())
    withUnsafeMutableBytes(of: &keystream) { stream in
      guard let streamBase = stream.baseAddress else { return }
      // SAFETY: the tuple is 256 bytes; rest < 256 so offset + i < buffer.count and i < 256.
      fourBlocks(counter: nextBlock).write(to: streamBase, xor: false)
      for i in 0..<rest {
        base.storeBytes(
          of: base.load(fromByteOffset: offset + i, as: UInt8.self) ^ stream[i], toByteOffset: offset + i,
          as: UInt8.self)
      }
    }
    let used = (rest + 63) / 64
    nextBlock &+= UInt64(used)
    if rest % 64 != 0 {
      switch used {
      case 1: pending = keystream.0
      case 2: pending = keystream.1
      case 3: pending = keystream.2
      default: pending = keystream.3
      }
      pendingCount = 64 - rest % 64
    }
  }
}

// ChaCha20 kernels (RFC 8439 §2.1-§2.3): a scalar reference block function, a four-block SIMD4
// kernel (lane i computes block counter + i), a nine-block kernel (eight SIMD8 lanes plus one block
// in general-purpose registers, interleaved), and the keystream bookkeeping of `apply`.
//
// Why nine: on the baseline x86-64 target (SSE2, no byte shuffle) the vector rounds saturate the
// vector pipes while the integer ALUs, which have a one-instruction rotate, sit idle. Computing one
// more block there in the same round loop adds about a quarter to the throughput; eight vector lanes
// (two SSE registers per word) give the out-of-order core two independent chains per quarter round.

/// Sixteen state words for four blocks: `x[w]` lane `b` is word `w` of block `b`.
@usableFromInline
struct StreamLanes {
  var x:
    (
      SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>,
      SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>, SIMD4<UInt32>,
      SIMD4<UInt32>, SIMD4<UInt32>
    )

  /// Writes 256 bytes of keystream (block 0, then 1, 2, 3) to `pointer`, XORing them into the
  /// bytes already there when `xor` is true.
  @inline(__always)
  // SAFETY: the callers (applyUnchecked, xorNineBlocks) pass base + offset with 256 bytes left (their loop
  // conditions); loads are unaligned, and unaligned storeBytes is allowed for raw pointers.
  func write(to pointer: UnsafeMutableRawPointer, xor: Bool) {
    @inline(__always) func row(
      _ a: SIMD4<UInt32>, _ b: SIMD4<UInt32>, _ c: SIMD4<UInt32>, _ d: SIMD4<UInt32>, _ offset: Int
    ) {
      // Transpose: block k gets (a[k], b[k], c[k], d[k]) at byte 64k + offset.
      for k in 0..<4 {
        var v = SIMD4<UInt32>(a[k], b[k], c[k], d[k])
        #if _endian(big)
          v = SIMD4(v[0].byteSwapped, v[1].byteSwapped, v[2].byteSwapped, v[3].byteSwapped)
        #endif
        // SAFETY: callers pass 256 writable bytes; 64k + offset + 16 <= 256 for k <= 3, offset <= 48.
        let target = pointer + 64 * k + offset
        if xor { v ^= target.loadUnaligned(as: SIMD4<UInt32>.self) }
        target.storeBytes(of: v, as: SIMD4<UInt32>.self)
      }
    }
    row(x.0, x.1, x.2, x.3, 0)
    row(x.4, x.5, x.6, x.7, 16)
    row(x.8, x.9, x.10, x.11, 32)
    row(x.12, x.13, x.14, x.15, 48)
  }

  /// The end of the nine-block kernels: XORs the keystream of blocks 0...7 (eight-lane state words `x`, initial
  /// state already added) and of the ninth block (`ninth`) into 576 bytes at `pointer`.
  // SAFETY: `pointer` has 576 writable bytes (nineBlocks' callers check offset + 576 <= count).
  @inline(__always)
  static func xorNineBlocks(
    _ x: (
      SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>,
      SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>,
      SIMD8<UInt32>, SIMD8<UInt32>
    ), ninth: ScalarLanes, into pointer: UnsafeMutableRawPointer
  ) {
    let (low, high) = halves(x)
    // SAFETY: callers pass 576 writable bytes: 256 + 256 + 64.
    low.write(to: pointer, xor: true)
    high.write(to: pointer + 256, xor: true)
    ninth.xor(into: pointer + 512)
  }

  /// Splits eight-lane state words into the keystream of blocks 0...3 (low halves) and 4...7.
  @inline(__always)
  static func halves(
    _ x: (
      SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>,
      SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>, SIMD8<UInt32>,
      SIMD8<UInt32>, SIMD8<UInt32>
    )
  ) -> (low: StreamLanes, high: StreamLanes) {
    (
      StreamLanes(
        x: (
          x.0.lowHalf, x.1.lowHalf, x.2.lowHalf, x.3.lowHalf, x.4.lowHalf, x.5.lowHalf, x.6.lowHalf, x.7.lowHalf,
          x.8.lowHalf, x.9.lowHalf, x.10.lowHalf, x.11.lowHalf, x.12.lowHalf, x.13.lowHalf, x.14.lowHalf,
          x.15.lowHalf
        )),
      StreamLanes(
        x: (
          x.0.highHalf, x.1.highHalf, x.2.highHalf, x.3.highHalf, x.4.highHalf, x.5.highHalf, x.6.highHalf,
          x.7.highHalf, x.8.highHalf, x.9.highHalf, x.10.highHalf, x.11.highHalf, x.12.highHalf, x.13.highHalf,
          x.14.highHalf, x.15.highHalf
        ))
    )
  }
}

/// Sixteen state words of one block held in general-purpose registers (the ninth block of the
/// nine-block kernels).
@usableFromInline
struct ScalarLanes {
  var x:
    (
      UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
      UInt32, UInt32
    )

  /// The word-wise sum `self &+ other` (the block function's final addition of the initial state).
  @inline(__always)
  func adding(_ other: ScalarLanes) -> ScalarLanes {
    let (a, b) = (x, other.x)
    return ScalarLanes(
      x: (
        a.0 &+ b.0, a.1 &+ b.1, a.2 &+ b.2, a.3 &+ b.3, a.4 &+ b.4, a.5 &+ b.5, a.6 &+ b.6, a.7 &+ b.7, a.8 &+ b.8,
        a.9 &+ b.9, a.10 &+ b.10, a.11 &+ b.11, a.12 &+ b.12, a.13 &+ b.13, a.14 &+ b.14, a.15 &+ b.15
      ))
  }

  /// XORs the 64-byte block into the bytes at `pointer` (little-endian words on every host).
  @inline(__always)
  // SAFETY: callers pass 64 writable bytes (the ninth block of 576, or the tail path); see `word`.
  func xor(into pointer: UnsafeMutableRawPointer) {
    @inline(__always) func word(_ index: Int, _ value: UInt32) {
      // SAFETY: callers pass 64 writable bytes; 4 * index + 4 <= 64 for index <= 15.
      let old = pointer.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)
      pointer.storeBytes(of: old ^ value.littleEndian, toByteOffset: 4 * index, as: UInt32.self)
    }
    word(0, x.0)
    word(1, x.1)
    word(2, x.2)
    word(3, x.3)
    word(4, x.4)
    word(5, x.5)
    word(6, x.6)
    word(7, x.7)
    word(8, x.8)
    word(9, x.9)
    word(10, x.10)
    word(11, x.11)
    word(12, x.12)
    word(13, x.13)
    word(14, x.14)
    word(15, x.15)
  }
}

@inline(__always)
func rotl(_ v: SIMD4<UInt32>, _ n: UInt32) -> SIMD4<UInt32> {
  // `&+` rather than `|`: the default x86-64 target scalarizes the `|` form.
  (v &<< n) &+ (v &>> (32 - n))
}

@inline(__always)
func rotl(_ v: SIMD8<UInt32>, _ n: UInt32) -> SIMD8<UInt32> {
  (v &<< n) &+ (v &>> (32 - n))
}

extension ChaCha20 {
  /// The RFC 8439 §2.3 block function for one block, written plainly (the reference kernel).
  func referenceBlock(counter: UInt32) -> SIMD16<UInt32> {
    var initial = SIMD16<UInt32>()
    initial[0] = 0x6170_7865
    initial[1] = 0x3320_646e
    initial[2] = 0x7962_2d32
    initial[3] = 0x6b20_6574
    for index in 0..<8 { initial[4 + index] = keyWords[index] }
    initial[12] = counter
    for index in 0..<3 { initial[13 + index] = nonceWords[index] }
    var s = initial
    func quarterRound(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
      s[a] = s[a] &+ s[b]
      s[d] = (s[d] ^ s[a]).rotatedLeft(by: 16)
      s[c] = s[c] &+ s[d]
      s[b] = (s[b] ^ s[c]).rotatedLeft(by: 12)
      s[a] = s[a] &+ s[b]
      s[d] = (s[d] ^ s[a]).rotatedLeft(by: 8)
      s[c] = s[c] &+ s[d]
      s[b] = (s[b] ^ s[c]).rotatedLeft(by: 7)
    }
    for _ in 0..<10 {
      quarterRound(0, 4, 8, 12)
      quarterRound(1, 5, 9, 13)
      quarterRound(2, 6, 10, 14)
      quarterRound(3, 7, 11, 15)
      quarterRound(0, 5, 10, 15)
      quarterRound(1, 6, 11, 12)
      quarterRound(2, 7, 8, 13)
      quarterRound(3, 4, 9, 14)
    }
    return s &+ initial
  }

  /// Four consecutive blocks starting at `counter` (lanes wrap modulo 2^32; callers never use a
  /// wrapped lane because `apply` checks the counter first).
  @inline(__always)
  func fourBlocks(counter: UInt32) -> StreamLanes {
    let c0 = SIMD4<UInt32>(repeating: 0x6170_7865)
    let c1 = SIMD4<UInt32>(repeating: 0x3320_646e)
    let c2 = SIMD4<UInt32>(repeating: 0x7962_2d32)
    let c3 = SIMD4<UInt32>(repeating: 0x6b20_6574)
    let k0 = SIMD4(repeating: keyWords[0])
    let k1 = SIMD4(repeating: keyWords[1])
    let k2 = SIMD4(repeating: keyWords[2])
    let k3 = SIMD4(repeating: keyWords[3])
    let k4 = SIMD4(repeating: keyWords[4])
    let k5 = SIMD4(repeating: keyWords[5])
    let k6 = SIMD4(repeating: keyWords[6])
    let k7 = SIMD4(repeating: keyWords[7])
    let ctr = SIMD4(repeating: counter) &+ SIMD4(0, 1, 2, 3)
    let n0 = SIMD4(repeating: nonceWords[0])
    let n1 = SIMD4(repeating: nonceWords[1])
    let n2 = SIMD4(repeating: nonceWords[2])
    var (x0, x1, x2, x3, x4, x5, x6, x7) = (c0, c1, c2, c3, k0, k1, k2, k3)
    var (x8, x9, x10, x11, x12, x13, x14, x15) = (k4, k5, k6, k7, ctr, n0, n1, n2)
    @inline(__always) func qr(
      _ a: inout SIMD4<UInt32>, _ b: inout SIMD4<UInt32>, _ c: inout SIMD4<UInt32>, _ d: inout SIMD4<UInt32>
    ) {
      a &+= b
      d = rotl(d ^ a, 16)
      c &+= d
      b = rotl(b ^ c, 12)
      a &+= b
      d = rotl(d ^ a, 8)
      c &+= d
      b = rotl(b ^ c, 7)
    }
    for _ in 0..<10 {
      qr(&x0, &x4, &x8, &x12)
      qr(&x1, &x5, &x9, &x13)
      qr(&x2, &x6, &x10, &x14)
      qr(&x3, &x7, &x11, &x15)
      qr(&x0, &x5, &x10, &x15)
      qr(&x1, &x6, &x11, &x12)
      qr(&x2, &x7, &x8, &x13)
      qr(&x3, &x4, &x9, &x14)
    }
    return StreamLanes(
      x: (
        x0 &+ c0, x1 &+ c1, x2 &+ c2, x3 &+ c3, x4 &+ k0, x5 &+ k1, x6 &+ k2, x7 &+ k3, x8 &+ k4, x9 &+ k5,
        x10 &+ k6, x11 &+ k7, x12 &+ ctr, x13 &+ n0, x14 &+ n1, x15 &+ n2
      ))
  }

  /// Nine consecutive blocks starting at `counter` XORed into 576 bytes at `pointer`: blocks
  /// counter...counter+7 in SIMD8 lanes, block counter+8 in scalar words, in one round loop.
  @inline(__always)
  // SAFETY: the caller (applyUnchecked) passes base + offset with offset + 576 <= buffer.count.
  func nineBlocks(counter: UInt32, xorInto pointer: UnsafeMutableRawPointer) {
    let c0 = SIMD8<UInt32>(repeating: 0x6170_7865)
    let c1 = SIMD8<UInt32>(repeating: 0x3320_646e)
    let c2 = SIMD8<UInt32>(repeating: 0x7962_2d32)
    let c3 = SIMD8<UInt32>(repeating: 0x6b20_6574)
    let k0 = SIMD8(repeating: keyWords[0])
    let k1 = SIMD8(repeating: keyWords[1])
    let k2 = SIMD8(repeating: keyWords[2])
    let k3 = SIMD8(repeating: keyWords[3])
    let k4 = SIMD8(repeating: keyWords[4])
    let k5 = SIMD8(repeating: keyWords[5])
    let k6 = SIMD8(repeating: keyWords[6])
    let k7 = SIMD8(repeating: keyWords[7])
    let ctr = SIMD8(repeating: counter) &+ SIMD8(0, 1, 2, 3, 4, 5, 6, 7)
    let n0 = SIMD8(repeating: nonceWords[0])
    let n1 = SIMD8(repeating: nonceWords[1])
    let n2 = SIMD8(repeating: nonceWords[2])
    var (x0, x1, x2, x3, x4, x5, x6, x7) = (c0, c1, c2, c3, k0, k1, k2, k3)
    var (x8, x9, x10, x11, x12, x13, x14, x15) = (k4, k5, k6, k7, ctr, n0, n1, n2)
    // The ninth block, in general-purpose registers.
    let initial = ScalarLanes(
      x: (
        0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574, keyWords[0], keyWords[1], keyWords[2], keyWords[3],
        keyWords[4], keyWords[5], keyWords[6], keyWords[7], counter &+ 8, nonceWords[0], nonceWords[1],
        nonceWords[2]
      ))
    var (y0, y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12, y13, y14, y15) = initial.x
    @inline(__always) func qr(
      _ a: inout SIMD8<UInt32>, _ b: inout SIMD8<UInt32>, _ c: inout SIMD8<UInt32>, _ d: inout SIMD8<UInt32>
    ) {
      a &+= b
      d = rotl(d ^ a, 16)
      c &+= d
      b = rotl(b ^ c, 12)
      a &+= b
      d = rotl(d ^ a, 8)
      c &+= d
      b = rotl(b ^ c, 7)
    }
    @inline(__always) func qr(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
      a &+= b
      d = (d ^ a).rotatedLeft(by: 16)
      c &+= d
      b = (b ^ c).rotatedLeft(by: 12)
      a &+= b
      d = (d ^ a).rotatedLeft(by: 8)
      c &+= d
      b = (b ^ c).rotatedLeft(by: 7)
    }
    for _ in 0..<10 {
      // Vector and scalar quarter rounds alternate so both kinds of execution unit stay busy.
      qr(&x0, &x4, &x8, &x12)
      qr(&y0, &y4, &y8, &y12)
      qr(&x1, &x5, &x9, &x13)
      qr(&y1, &y5, &y9, &y13)
      qr(&x2, &x6, &x10, &x14)
      qr(&y2, &y6, &y10, &y14)
      qr(&x3, &x7, &x11, &x15)
      qr(&y3, &y7, &y11, &y15)
      qr(&x0, &x5, &x10, &x15)
      qr(&y0, &y5, &y10, &y15)
      qr(&x1, &x6, &x11, &x12)
      qr(&y1, &y6, &y11, &y12)
      qr(&x2, &x7, &x8, &x13)
      qr(&y2, &y7, &y8, &y13)
      qr(&x3, &x4, &x9, &x14)
      qr(&y3, &y4, &y9, &y14)
    }
    // SAFETY: callers pass 576 writable bytes.
    StreamLanes.xorNineBlocks(
      (
        x0 &+ c0, x1 &+ c1, x2 &+ c2, x3 &+ c3, x4 &+ k0, x5 &+ k1, x6 &+ k2, x7 &+ k3, x8 &+ k4, x9 &+ k5,
        x10 &+ k6, x11 &+ k7, x12 &+ ctr, x13 &+ n0, x14 &+ n1, x15 &+ n2
      ),
      ninth: ScalarLanes(x: (y0, y1, y2, y3, y4, y5, y6, y7, y8, y9, y10, y11, y12, y13, y14, y15)).adding(initial),
      into: pointer)
  }

  /// XORs keystream into `buffer`; the caller has checked that the counter does not run out.
  @usableFromInline
  mutating func applyUnchecked(to buffer: UnsafeMutableRawBufferPointer) {
    // SAFETY: `buffer` is lent by the caller for this call (an array's storage or the caller's raw buffer);
    // `pending` is a SIMD16<UInt32> (64 bytes), read inside its closure only. Each write below names its bound.
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    var offset = 0
    // 1. Unused bytes of the previous block.
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
    // 2. Whole groups of nine blocks, then of four, XORed straight into the buffer.
    while buffer.count - offset >= 576 {
      // SAFETY: offset + 576 <= buffer.count.
      nineBlocks(counter: UInt32(truncatingIfNeeded: nextBlock), xorInto: base + offset)
      nextBlock += 9
      offset += 576
    }
    while buffer.count - offset >= 256 {
      // SAFETY: offset + 256 <= buffer.count.
      fourBlocks(counter: UInt32(truncatingIfNeeded: nextBlock)).write(to: base + offset, xor: true)
      nextBlock += 4
      offset += 256
    }
    // 3. The tail: up to four more blocks through a local buffer; keep a partial block pending.
    let rest = buffer.count - offset
    guard rest > 0 else { return }
    var keystream = (SIMD16<UInt32>(), SIMD16<UInt32>(), SIMD16<UInt32>(), SIMD16<UInt32>())
    withUnsafeMutableBytes(of: &keystream) { stream in
      guard let streamBase = stream.baseAddress else { return }
      // SAFETY: the tuple is 256 bytes; rest < 256 so offset + i < buffer.count and i < 256.
      fourBlocks(counter: UInt32(truncatingIfNeeded: nextBlock)).write(to: streamBase, xor: false)
      for i in 0..<rest {
        base.storeBytes(
          of: base.load(fromByteOffset: offset + i, as: UInt8.self) ^ stream[i], toByteOffset: offset + i,
          as: UInt8.self)
      }
    }
    let used = (rest + 63) / 64
    nextBlock += UInt64(used)
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

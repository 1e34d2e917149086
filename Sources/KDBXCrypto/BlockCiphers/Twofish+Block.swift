// Twofish kernels (paper §4.1): 16 Feistel rounds, two per loop step so no words are swapped.
// Not constant-time: g looks up key-dependent tables with state bytes.

/// Pointers to the subkeys and the g tables, bound once per bulk call.
@usableFromInline
struct TwofishKernel {
  // SAFETY: both pointers come from withKernel, valid only inside its closure (the kernel never escapes it):
  // `keys` the 40 subkeys, `tables` the 4 * 256 key-dependent g tables; both arrays are immutable.
  let keys: UnsafePointer<UInt32>
  let tables: UnsafePointer<UInt32>

  // SAFETY: g indexes tables at 256 * j + byte < 1024; keys are read at indices < 40.

  @inline(__always)
  func g(_ x: UInt32) -> UInt32 {
    (tables[Int(x & 0xff)] ^ tables[256 + Int((x >> 8) & 0xff)])
      ^ (tables[512 + Int((x >> 16) & 0xff)] ^ tables[768 + Int(x >> 24)])
  }

  /// g(ROL(x, 8)), reading the bytes of x in rotated order instead of rotating.
  @inline(__always)
  func gRotated(_ x: UInt32) -> UInt32 {
    (tables[Int(x >> 24)] ^ tables[256 + Int(x & 0xff)])
      ^ (tables[512 + Int((x >> 8) & 0xff)] ^ tables[768 + Int((x >> 16) & 0xff)])
  }

  @inline(__always)
  func encrypt(_ block: SIMD16<UInt8>) -> SIMD16<UInt8> {
    // SAFETY: unsafeBitCast between SIMD16<UInt8> and SIMD4<UInt32> reinterprets 16 bytes of plain bits (same
    // size, no padding); byte order is fixed by the littleEndian conversions.
    let p = unsafeBitCast(block, to: SIMD4<UInt32>.self)
    var a = UInt32(littleEndian: p[0]) ^ keys[0]
    var b = UInt32(littleEndian: p[1]) ^ keys[1]
    var c = UInt32(littleEndian: p[2]) ^ keys[2]
    var d = UInt32(littleEndian: p[3]) ^ keys[3]
    var k = keys + 8
    for _ in 0..<8 {
      var t0 = g(a)
      var t1 = gRotated(b)
      c = (c ^ (t0 &+ t1 &+ k[0])).rotatedRight(by: 1)
      d = d.rotatedLeft(by: 1) ^ (t0 &+ t1 &+ t1 &+ k[1])
      t0 = g(c)
      t1 = gRotated(d)
      a = (a ^ (t0 &+ t1 &+ k[2])).rotatedRight(by: 1)
      b = b.rotatedLeft(by: 1) ^ (t0 &+ t1 &+ t1 &+ k[3])
      k += 4
    }
    let out = SIMD4<UInt32>(
      (c ^ keys[4]).littleEndian, (d ^ keys[5]).littleEndian, (a ^ keys[6]).littleEndian, (b ^ keys[7]).littleEndian)
    // SAFETY: same-size (16-byte) SIMD value cast, as above.
    return unsafeBitCast(out, to: SIMD16<UInt8>.self)
  }

  @inline(__always)
  func decrypt(_ block: SIMD16<UInt8>) -> SIMD16<UInt8> {
    // SAFETY: unsafeBitCast between SIMD16<UInt8> and SIMD4<UInt32> reinterprets 16 bytes of plain bits (same
    // size, no padding); byte order is fixed by the littleEndian conversions.
    let p = unsafeBitCast(block, to: SIMD4<UInt32>.self)
    var c = UInt32(littleEndian: p[0]) ^ keys[4]
    var d = UInt32(littleEndian: p[1]) ^ keys[5]
    var a = UInt32(littleEndian: p[2]) ^ keys[6]
    var b = UInt32(littleEndian: p[3]) ^ keys[7]
    var k = keys + 36
    for _ in 0..<8 {
      var t0 = g(c)
      var t1 = gRotated(d)
      a = a.rotatedLeft(by: 1) ^ (t0 &+ t1 &+ k[2])
      b = (b ^ (t0 &+ t1 &+ t1 &+ k[3])).rotatedRight(by: 1)
      t0 = g(a)
      t1 = gRotated(b)
      c = c.rotatedLeft(by: 1) ^ (t0 &+ t1 &+ k[0])
      d = (d ^ (t0 &+ t1 &+ t1 &+ k[1])).rotatedRight(by: 1)
      k -= 4
    }
    let out = SIMD4<UInt32>(
      (a ^ keys[0]).littleEndian, (b ^ keys[1]).littleEndian, (c ^ keys[2]).littleEndian, (d ^ keys[3]).littleEndian)
    // SAFETY: same-size (16-byte) SIMD value cast, as above.
    return unsafeBitCast(out, to: SIMD16<UInt8>.self)
  }
}

extension TwofishKernel {
  /// Decrypts two independent blocks with their rounds interleaved (more instruction-level
  /// parallelism for CBC decryption).
  @inline(__always)
  func decrypt(_ x: SIMD16<UInt8>, _ y: SIMD16<UInt8>) -> (SIMD16<UInt8>, SIMD16<UInt8>) {
    // SAFETY: unsafeBitCast between SIMD16<UInt8> and SIMD4<UInt32> reinterprets 16 bytes of plain bits (same
    // size, no padding); byte order is fixed by the littleEndian conversions.
    let p = unsafeBitCast(x, to: SIMD4<UInt32>.self)
    let q = unsafeBitCast(y, to: SIMD4<UInt32>.self)
    var c = UInt32(littleEndian: p[0]) ^ keys[4]
    var d = UInt32(littleEndian: p[1]) ^ keys[5]
    var a = UInt32(littleEndian: p[2]) ^ keys[6]
    var b = UInt32(littleEndian: p[3]) ^ keys[7]
    var c2 = UInt32(littleEndian: q[0]) ^ keys[4]
    var d2 = UInt32(littleEndian: q[1]) ^ keys[5]
    var a2 = UInt32(littleEndian: q[2]) ^ keys[6]
    var b2 = UInt32(littleEndian: q[3]) ^ keys[7]
    var k = keys + 36
    for _ in 0..<8 {
      var t0 = g(c)
      var t1 = gRotated(d)
      var u0 = g(c2)
      var u1 = gRotated(d2)
      a = a.rotatedLeft(by: 1) ^ (t0 &+ t1 &+ k[2])
      b = (b ^ (t0 &+ t1 &+ t1 &+ k[3])).rotatedRight(by: 1)
      a2 = a2.rotatedLeft(by: 1) ^ (u0 &+ u1 &+ k[2])
      b2 = (b2 ^ (u0 &+ u1 &+ u1 &+ k[3])).rotatedRight(by: 1)
      t0 = g(a)
      t1 = gRotated(b)
      u0 = g(a2)
      u1 = gRotated(b2)
      c = c.rotatedLeft(by: 1) ^ (t0 &+ t1 &+ k[0])
      d = (d ^ (t0 &+ t1 &+ t1 &+ k[1])).rotatedRight(by: 1)
      c2 = c2.rotatedLeft(by: 1) ^ (u0 &+ u1 &+ k[0])
      d2 = (d2 ^ (u0 &+ u1 &+ u1 &+ k[1])).rotatedRight(by: 1)
      k -= 4
    }
    let out1 = SIMD4<UInt32>(
      (a ^ keys[0]).littleEndian, (b ^ keys[1]).littleEndian, (c ^ keys[2]).littleEndian, (d ^ keys[3]).littleEndian)
    let out2 = SIMD4<UInt32>(
      (a2 ^ keys[0]).littleEndian, (b2 ^ keys[1]).littleEndian, (c2 ^ keys[2]).littleEndian,
      (d2 ^ keys[3]).littleEndian)
    // SAFETY: same-size (16-byte) SIMD value casts, as above.
    return (unsafeBitCast(out1, to: SIMD16<UInt8>.self), unsafeBitCast(out2, to: SIMD16<UInt8>.self))
  }
}

extension TwofishKernel {
  /// Decrypts three independent blocks with their rounds interleaved: CBC decryption's main step.
  /// Three is the most that stays (nearly) in registers; the third chain adds instruction-level
  /// parallelism that two alone leave unused.
  @inline(__always)
  func decrypt(_ x: SIMD16<UInt8>, _ y: SIMD16<UInt8>, _ z: SIMD16<UInt8>) -> (
    SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>
  ) {
    // SAFETY: unsafeBitCast between SIMD16<UInt8> and SIMD4<UInt32> reinterprets 16 bytes of plain bits (same
    // size, no padding); byte order is fixed by the littleEndian conversions.
    let p = unsafeBitCast(x, to: SIMD4<UInt32>.self)
    let q = unsafeBitCast(y, to: SIMD4<UInt32>.self)
    let r = unsafeBitCast(z, to: SIMD4<UInt32>.self)
    var c = UInt32(littleEndian: p[0]) ^ keys[4]
    var d = UInt32(littleEndian: p[1]) ^ keys[5]
    var a = UInt32(littleEndian: p[2]) ^ keys[6]
    var b = UInt32(littleEndian: p[3]) ^ keys[7]
    var c2 = UInt32(littleEndian: q[0]) ^ keys[4]
    var d2 = UInt32(littleEndian: q[1]) ^ keys[5]
    var a2 = UInt32(littleEndian: q[2]) ^ keys[6]
    var b2 = UInt32(littleEndian: q[3]) ^ keys[7]
    var c3 = UInt32(littleEndian: r[0]) ^ keys[4]
    var d3 = UInt32(littleEndian: r[1]) ^ keys[5]
    var a3 = UInt32(littleEndian: r[2]) ^ keys[6]
    var b3 = UInt32(littleEndian: r[3]) ^ keys[7]
    var k = keys + 36
    for _ in 0..<8 {
      var t0 = g(c)
      var t1 = gRotated(d)
      var u0 = g(c2)
      var u1 = gRotated(d2)
      var v0 = g(c3)
      var v1 = gRotated(d3)
      a = a.rotatedLeft(by: 1) ^ (t0 &+ t1 &+ k[2])
      b = (b ^ (t0 &+ t1 &+ t1 &+ k[3])).rotatedRight(by: 1)
      a2 = a2.rotatedLeft(by: 1) ^ (u0 &+ u1 &+ k[2])
      b2 = (b2 ^ (u0 &+ u1 &+ u1 &+ k[3])).rotatedRight(by: 1)
      a3 = a3.rotatedLeft(by: 1) ^ (v0 &+ v1 &+ k[2])
      b3 = (b3 ^ (v0 &+ v1 &+ v1 &+ k[3])).rotatedRight(by: 1)
      t0 = g(a)
      t1 = gRotated(b)
      u0 = g(a2)
      u1 = gRotated(b2)
      v0 = g(a3)
      v1 = gRotated(b3)
      c = c.rotatedLeft(by: 1) ^ (t0 &+ t1 &+ k[0])
      d = (d ^ (t0 &+ t1 &+ t1 &+ k[1])).rotatedRight(by: 1)
      c2 = c2.rotatedLeft(by: 1) ^ (u0 &+ u1 &+ k[0])
      d2 = (d2 ^ (u0 &+ u1 &+ u1 &+ k[1])).rotatedRight(by: 1)
      c3 = c3.rotatedLeft(by: 1) ^ (v0 &+ v1 &+ k[0])
      d3 = (d3 ^ (v0 &+ v1 &+ v1 &+ k[1])).rotatedRight(by: 1)
      k -= 4
    }
    let out1 = SIMD4<UInt32>(
      (a ^ keys[0]).littleEndian, (b ^ keys[1]).littleEndian, (c ^ keys[2]).littleEndian, (d ^ keys[3]).littleEndian)
    let out2 = SIMD4<UInt32>(
      (a2 ^ keys[0]).littleEndian, (b2 ^ keys[1]).littleEndian, (c2 ^ keys[2]).littleEndian,
      (d2 ^ keys[3]).littleEndian)
    let out3 = SIMD4<UInt32>(
      (a3 ^ keys[0]).littleEndian, (b3 ^ keys[1]).littleEndian, (c3 ^ keys[2]).littleEndian,
      (d3 ^ keys[3]).littleEndian)
    return (
      // SAFETY: same-size (16-byte) SIMD value casts, as above.
      unsafeBitCast(out1, to: SIMD16<UInt8>.self), unsafeBitCast(out2, to: SIMD16<UInt8>.self),
      unsafeBitCast(out3, to: SIMD16<UInt8>.self)
    )
  }
}

extension Twofish {
  @inline(__always)
  func withKernel<R>(_ body: (TwofishKernel) -> R) -> R {
    // SAFETY: both arrays are immutable, non-empty and outlive the closure.
    subkeys.withUnsafeBufferPointer { keys in
      sboxTables.withUnsafeBufferPointer { tables in
        guard let k = keys.baseAddress, let t = tables.baseAddress else {
          preconditionFailure("Twofish tables are never empty")
        }
        return body(TwofishKernel(keys: k, tables: t))
      }
    }
  }

  /// CBC encryption in place (NIST SP 800-38A §6.2) with the tables bound once.
  // SAFETY: the caller lends `buffer`; the precondition (whole blocks) holds before `base` is used, and the
  // unaligned 16-byte loads/stores stay below count (loop bounds noted inside).
  public func cbcEncrypt(_ buffer: UnsafeMutableRawBufferPointer, chainingValue: inout SIMD16<UInt8>) {
    precondition(buffer.count % 16 == 0, "CBC works on whole blocks")
    guard let base = buffer.baseAddress else { return }
    var chain = chainingValue
    withKernel { kernel in
      var offset = 0
      // SAFETY: offset + 16 <= buffer.count in every iteration.
      while offset < buffer.count {
        chain = kernel.encrypt(base.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self) ^ chain)
        base.storeBytes(of: chain, toByteOffset: offset, as: SIMD16<UInt8>.self)
        offset += 16
      }
    }
    chainingValue = chain
  }

  /// CBC decryption in place (NIST SP 800-38A §6.2); three blocks per step for parallelism, then
  /// a pair or a single block for the tail.
  // SAFETY: the caller lends `buffer`; the precondition (whole blocks) holds before `base` is used, and the
  // unaligned 16-byte loads/stores stay below count (loop bounds noted inside).
  public func cbcDecrypt(_ buffer: UnsafeMutableRawBufferPointer, chainingValue: inout SIMD16<UInt8>) {
    precondition(buffer.count % 16 == 0, "CBC works on whole blocks")
    guard let base = buffer.baseAddress else { return }
    var chain = chainingValue
    withKernel { kernel in
      var offset = 0
      // SAFETY: offset + 48 <= buffer.count for triples, offset + 32 <= buffer.count for a pair and
      // offset + 16 <= buffer.count for a single block. The ciphertext blocks are loaded before
      // the plaintext overwrites them.
      while offset + 48 <= buffer.count {
        let c0 = base.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
        let c1 = base.loadUnaligned(fromByteOffset: offset + 16, as: SIMD16<UInt8>.self)
        let c2 = base.loadUnaligned(fromByteOffset: offset + 32, as: SIMD16<UInt8>.self)
        let (d0, d1, d2) = kernel.decrypt(c0, c1, c2)
        base.storeBytes(of: d0 ^ chain, toByteOffset: offset, as: SIMD16<UInt8>.self)
        base.storeBytes(of: d1 ^ c0, toByteOffset: offset + 16, as: SIMD16<UInt8>.self)
        base.storeBytes(of: d2 ^ c1, toByteOffset: offset + 32, as: SIMD16<UInt8>.self)
        chain = c2
        offset += 48
      }
      if offset + 32 <= buffer.count {
        let c0 = base.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
        let c1 = base.loadUnaligned(fromByteOffset: offset + 16, as: SIMD16<UInt8>.self)
        let (d0, d1) = kernel.decrypt(c0, c1)
        base.storeBytes(of: d0 ^ chain, toByteOffset: offset, as: SIMD16<UInt8>.self)
        base.storeBytes(of: d1 ^ c0, toByteOffset: offset + 16, as: SIMD16<UInt8>.self)
        chain = c1
        offset += 32
      }
      if offset < buffer.count {
        let c0 = base.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
        base.storeBytes(of: kernel.decrypt(c0) ^ chain, toByteOffset: offset, as: SIMD16<UInt8>.self)
        chain = c0
      }
    }
    chainingValue = chain
  }
}

// The Argon2 kernel: the block memory, the compression function G with the BlaMka permutation P
// (RFC 9106 §3.5, §3.6), and filling one segment (RFC 9106 §3.2 steps 5-6, §3.4).
//
// This is the only Argon2 file with pointer code. Blocks are 1 KiB, held as 64 `SIMD2<UInt64>`
// registers each: register k holds words 2k and 2k+1 of the block (RFC 9106 §3.5 numbers the 16-byte
// registers of a block R_0..R_63 the same way).

/// Two 64-bit words of a block, the 16-byte register of RFC 9106 §3.6.
@usableFromInline
typealias Argon2Register = SIMD2<UInt64>

/// The registers per 1 KiB block.
let argon2RegistersPerBlock = 64

/// One Argon2 run over a block memory: m' blocks of 1 KiB, lane after lane.
///
/// `@unchecked Sendable`, so that segments of different lanes can be filled by concurrent tasks.
/// SAFETY (RFC 9106 §3.4 sync points): within one slice, the segment of lane l writes only blocks
/// `l * laneLength + slice * segmentLength ..< + segmentLength`, so concurrent segments of the same slice
/// write disjoint blocks. A segment reads (a) its own lane's blocks, and (b) other lanes' blocks only in
/// segments of *other* slices (`Argon2Geometry.referenceColumn` never yields a column of the current slice
/// for another lane), which were finished before this slice started: the drivers finish every segment of
/// one slice before any segment of the next slice begins. So no block is read while another task writes it.
@usableFromInline
struct Argon2Instance: @unchecked Sendable {
  let base: UnsafeMutablePointer<Argon2Register>
  let geometry: Argon2Geometry
  let variant: Argon2.Variant
  let version: Argon2.Version
  let passes: Int

  /// Binds `memory` to blocks. The caller has checked that `memory` holds at least `geometry.blockCount`
  /// KiB and is 16-byte aligned.
  init(memory: UnsafeMutableRawBufferPointer, geometry: Argon2Geometry, parameters: Argon2.Parameters) {
    precondition(memory.count >= geometry.blockCount * 1024)
    guard let start = memory.baseAddress else { preconditionFailure("Argon2 memory has no base address") }
    precondition(Int(bitPattern: start) % 16 == 0)
    // SAFETY: `memory` has room for `blockCount * 64` registers (checked above) and is aligned for them.
    base = start.bindMemory(to: Argon2Register.self, capacity: geometry.blockCount * argon2RegistersPerBlock)
    self.geometry = geometry
    variant = parameters.variant
    version = parameters.version
    self.passes = parameters.iterations
  }

  /// The first register of block `index` (`lane * laneLength + column`).
  @inline(__always)
  func block(_ index: Int) -> UnsafeMutablePointer<Argon2Register> {
    base + index &* argon2RegistersPerBlock
  }

  /// Stores 1024 little-endian bytes as block `index` (RFC 9106 §3.2 step 4: the first two blocks of a lane).
  func store(_ bytes: [UInt8], at index: Int) {
    precondition(bytes.count == 1024 && index >= 0 && index < geometry.blockCount)
    let out = block(index)
    // SAFETY: `bytes` has 1024 bytes, so the loads at offsets 0..<1024 are in bounds; block `index` is
    // inside the memory (checked above) and has 64 registers.
    bytes.withUnsafeBytes { raw in
      for k in 0..<argon2RegistersPerBlock {
        let low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k * 16, as: UInt64.self))
        let high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k * 16 + 8, as: UInt64.self))
        out[k] = Argon2Register(low, high)
      }
    }
  }

  /// RFC 9106 §3.2 step 7: `C = B[0][q-1] XOR ... XOR B[p-1][q-1]`, as 1024 little-endian bytes.
  func finalBlockBytes() -> [UInt8] {
    var bytes = [UInt8]()
    bytes.reserveCapacity(1024)
    for k in 0..<argon2RegistersPerBlock {
      var register = Argon2Register()
      for lane in 0..<geometry.lanes {
        // SAFETY: the last column of every lane is a block inside the memory; k < 64.
        register ^= block(lane * geometry.laneLength + geometry.laneLength - 1)[k]
      }
      for word in 0..<2 {
        for shift in stride(from: 0, to: 64, by: 8) {
          bytes.append(UInt8(truncatingIfNeeded: register[word] >> UInt64(shift)))
        }
      }
    }
    return bytes
  }

  /// Overwrites the whole block memory with zeros, so no intermediate block outlives the derivation.
  @inline(never)
  func wipe() {
    // SAFETY: the memory holds exactly `blockCount * 64` registers, all bound and initialized.
    base.update(repeating: Argon2Register(), count: geometry.blockCount * argon2RegistersPerBlock)
  }

  /// Fills segment `slice` of `lane` in pass `pass` (RFC 9106 §3.2 steps 5-6).
  func fillSegment(pass: Int, lane: Int, slice: Int) {
    let g = geometry
    let dataIndependent = Argon2Geometry.usesDataIndependentAddressing(variant: variant, pass: pass, slice: slice)
    let startIndex = (pass == 0 && slice == 0) ? 2 : 0
    let withXor = version == .v0x13 && pass > 0
    let laneStart = lane * g.laneLength
    // Scratch: R and the final XOR term of G, then the input and address blocks of RFC 9106 §3.4.2.
    withUnsafeTemporaryAllocation(of: Argon2Register.self, capacity: 4 * argon2RegistersPerBlock) { scratch in
      guard let r = scratch.baseAddress else { preconditionFailure("no scratch memory") }
      // SAFETY: the scratch holds 4 blocks of 64 registers: r, t, input and address below.
      let t = r + 64
      let input = r + 128
      let address = r + 192
      if dataIndependent {
        input.initialize(repeating: Argon2Register(), count: 64)
        input[0] = Argon2Register(UInt64(pass), UInt64(lane))
        input[1] = Argon2Register(UInt64(slice), UInt64(g.blockCount))
        input[2] = Argon2Register(UInt64(passes), UInt64(variant.rawValue))
        if startIndex != 0 { Argon2Instance.nextAddresses(input: input, address: address, r: r, t: t) }
      }
      var column = slice * g.segmentLength + startIndex
      var previousColumn = column == 0 ? g.laneLength - 1 : column - 1
      for index in startIndex..<g.segmentLength {
        // SAFETY: previousColumn and column are in 0..<laneLength, refLane in 0..<lanes and
        // referenceColumn returns a column in 0..<laneLength, so every block below lies in the memory.
        let previous = block(laneStart + previousColumn)
        let pseudoRandom: UInt64
        if dataIndependent {
          let slot = index & 127
          if slot == 0 {
            Argon2Instance.nextAddresses(input: input, address: address, r: r, t: t)
          }
          pseudoRandom = address[slot >> 1][slot & 1]
        } else {
          pseudoRandom = previous[0][0]
        }
        // RFC 9106 §3.4.1: J2 picks the lane (the current lane in the first slice of the first pass).
        let refLane = (pass == 0 && slice == 0) ? lane : Int(truncatingIfNeeded: (pseudoRandom >> 32) % UInt64(g.lanes))
        let refColumn = g.referenceColumn(
          pass: pass, slice: slice, index: index, pseudoRandom: UInt32(truncatingIfNeeded: pseudoRandom),
          sameLane: refLane == lane)
        let reference = block(refLane * g.laneLength + refColumn)
        let current = block(laneStart + column)
        if withXor {
          Argon2Instance.compressXor(previous, reference, into: current, r: r, t: t)
        } else {
          Argon2Instance.compress(previous, reference, into: current, r: r, t: t)
        }
        previousColumn = column
        column += 1
      }
    }
  }

  /// RFC 9106 §3.4.2: increments the counter of the input block Z and sets
  /// `address = G(ZERO, G(ZERO, Z))`.
  static func nextAddresses(
    input: UnsafeMutablePointer<Argon2Register>, address: UnsafeMutablePointer<Argon2Register>,
    r: UnsafeMutablePointer<Argon2Register>, t: UnsafeMutablePointer<Argon2Register>
  ) {
    input[3][0] &+= 1
    compressWithZero(input, into: address, r: r, t: t)
    compressWithZero(address, into: address, r: r, t: t)
  }

  /// `out = G(ZERO, x) = P(x) XOR x`. `out` may be `x`. All four pointers address 64 registers.
  @inline(__always)
  static func compressWithZero(
    _ x: UnsafeMutablePointer<Argon2Register>, into out: UnsafeMutablePointer<Argon2Register>,
    r: UnsafeMutablePointer<Argon2Register>, t: UnsafeMutablePointer<Argon2Register>
  ) {
    for k in 0..<64 {
      r[k] = x[k]
      t[k] = x[k]
    }
    permuteBlock(r)
    for k in 0..<64 { out[k] = r[k] ^ t[k] }
  }

  /// RFC 9106 §3.5: `out = G(x, y) = P(x XOR y) XOR (x XOR y)`, overwriting `out` (first pass, and v1.0).
  @inline(__always)
  static func compress(
    _ x: UnsafeMutablePointer<Argon2Register>, _ y: UnsafeMutablePointer<Argon2Register>,
    into out: UnsafeMutablePointer<Argon2Register>, r: UnsafeMutablePointer<Argon2Register>,
    t: UnsafeMutablePointer<Argon2Register>
  ) {
    for k in 0..<64 {
      let value = x[k] ^ y[k]
      r[k] = value
      t[k] = value
    }
    permuteBlock(r)
    for k in 0..<64 { out[k] = r[k] ^ t[k] }
  }

  /// RFC 9106 §3.2 step 6 (v1.3): `out = G(x, y) XOR out`, for passes after the first.
  @inline(__always)
  static func compressXor(
    _ x: UnsafeMutablePointer<Argon2Register>, _ y: UnsafeMutablePointer<Argon2Register>,
    into out: UnsafeMutablePointer<Argon2Register>, r: UnsafeMutablePointer<Argon2Register>,
    t: UnsafeMutablePointer<Argon2Register>
  ) {
    for k in 0..<64 {
      let value = x[k] ^ y[k]
      r[k] = value
      t[k] = value ^ out[k]
    }
    permuteBlock(r)
    for k in 0..<64 { out[k] = r[k] ^ t[k] }
  }

  /// RFC 9106 §3.5: P on the eight rows (registers 8i...8i+7), then on the eight columns
  /// (registers i, i+8, ..., i+56) of the 8x8 matrix of registers in `q`.
  @inline(__always)
  static func permuteBlock(_ q: UnsafeMutablePointer<Argon2Register>) {
    for i in 0..<8 { permute(q + 8 * i, stride: 1) }
    for i in 0..<8 { permute(q + i, stride: 8) }
  }

  /// RFC 9106 §3.6: the permutation P on the eight registers `s[0], s[stride], ..., s[7 * stride]`,
  /// which hold the words v0...v15 (register k holds v(2k) and v(2k+1)).
  @inline(__always)
  static func permute(_ s: UnsafeMutablePointer<Argon2Register>, stride: Int) {
    var a0 = s[0]
    var a1 = s[stride]
    var b0 = s[2 * stride]
    var b1 = s[3 * stride]
    var c0 = s[4 * stride]
    var c1 = s[5 * stride]
    var d0 = s[6 * stride]
    var d1 = s[7 * stride]
    // Columns: GB(v0, v4, v8, v12), GB(v1, v5, v9, v13) and GB(v2, v6, v10, v14), GB(v3, v7, v11, v15).
    mix(&a0, &b0, &c0, &d0)
    mix(&a1, &b1, &c1, &d1)
    // Diagonals: GB(v0, v5, v10, v15), GB(v1, v6, v11, v12) and GB(v2, v7, v8, v13), GB(v3, v4, v9, v14).
    var e0 = Argon2Register(b0[1], b1[0])
    var e1 = Argon2Register(b1[1], b0[0])
    var h0 = Argon2Register(d1[1], d0[0])
    var h1 = Argon2Register(d0[1], d1[0])
    mix(&a0, &e0, &c1, &h0)
    mix(&a1, &e1, &c0, &h1)
    s[0] = a0
    s[stride] = a1
    s[2 * stride] = Argon2Register(e1[1], e0[0])
    s[3 * stride] = Argon2Register(e0[1], e1[0])
    s[4 * stride] = c0
    s[5 * stride] = c1
    s[6 * stride] = Argon2Register(h0[1], h1[0])
    s[7 * stride] = Argon2Register(h1[1], h0[0])
  }

  /// RFC 9106 §3.6: GB on two columns at once, with the BlaMka multiplication
  /// `a + b + 2 * trunc(a) * trunc(b)` and rotations by 32, 24, 16 and 63.
  @inline(__always)
  static func mix(
    _ a: inout Argon2Register, _ b: inout Argon2Register, _ c: inout Argon2Register, _ d: inout Argon2Register
  ) {
    a = blaMka(a, b)
    d = rotateRight(d ^ a, 32)
    c = blaMka(c, d)
    b = rotateRight(b ^ c, 24)
    a = blaMka(a, b)
    d = rotateRight(d ^ a, 16)
    c = blaMka(c, d)
    b = rotateRight(b ^ c, 63)
  }

  /// `x + y + 2 * (x mod 2^32) * (y mod 2^32)` per lane; the masked multiply becomes one PMULUDQ.
  @inline(__always)
  static func blaMka(_ x: Argon2Register, _ y: Argon2Register) -> Argon2Register {
    let low = Argon2Register(repeating: 0xffff_ffff)
    let product = (x & low) &* (y & low)
    return x &+ y &+ product &+ product
  }

  /// Rotates each lane right by `count` (0 < count < 64). The halves are combined with `&+` (their bits
  /// do not overlap), which keeps the x86-64 code vectorized where `|` would scalarize it.
  @inline(__always)
  static func rotateRight(_ x: Argon2Register, _ count: UInt64) -> Argon2Register {
    (x &>> count) &+ (x &<< (64 &- count))
  }
}

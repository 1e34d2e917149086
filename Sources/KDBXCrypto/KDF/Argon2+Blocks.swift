// The Argon2 kernel: the block memory, the compression function G with the BlaMka permutation P
// (RFC 9106 §3.5, §3.6), and filling one segment (RFC 9106 §3.2 steps 5-6, §3.4).
//
// This is the only Argon2 file with pointer code. Blocks are 1 KiB, held as 64 `SIMD2<UInt64>`
// registers each: register k holds words 2k and 2k+1 of the block (RFC 9106 §3.5 numbers the 16-byte
// registers of a block R_0..R_63 the same way).

/// Two 64-bit words of a block, the 16-byte register of RFC 9106 §3.6.
@usableFromInline
typealias Argon2Register = SIMD2<UInt64>

/// The eight registers P works on: a row (registers 8i...8i+7) or a column (registers j, j+8, ..., j+56) of a
/// block (RFC 9106 §3.5).
@usableFromInline
typealias Argon2Octet = (
  Argon2Register, Argon2Register, Argon2Register, Argon2Register, Argon2Register, Argon2Register, Argon2Register,
  Argon2Register
)

/// The registers per 1 KiB block.
let argon2RegistersPerBlock = 64

/// One Argon2 run over a block memory: m' blocks of 1 KiB, lane after lane.
///
/// `@unchecked Sendable`, so that segments of different lanes can be filled by concurrent tasks.
/// SAFETY: (RFC 9106 §3.4 sync points) within one slice, the segment of lane l writes only blocks
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
  // SAFETY: size (blockCount KiB) and 16-byte alignment are checked by the preconditions below before the
  // memory is bound; the caller keeps it allocated until the derivation's last round has finished.
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
  func wipe() { wipe(part: 0, of: 1) }

  /// Overwrites part `part` of `parts` equal parts of the block memory with zeros; different parts can be
  /// wiped by concurrent tasks once no segment is being filled.
  @inline(never)
  func wipe(part: Int, of parts: Int) {
    precondition(parts > 0 && part >= 0 && part < parts)
    let total = geometry.blockCount * argon2RegistersPerBlock
    let start = total / parts * part
    let end = part == parts - 1 ? total : total / parts * (part + 1)
    // SAFETY: the memory holds exactly `total` registers, all bound and initialized; 0 <= start <= end <= total.
    (base + start).update(repeating: Argon2Register(), count: end - start)
  }

  /// Overwrites with zeros what the first pass wrote before a page-mapping hook failed: in each lane, the first two
  /// blocks (written before any hook ran) and the segments the lane filled (`record`). The rest of the memory was
  /// never written by this run, and may not be mapped: writing zeros there would make the system supply the very
  /// memory it just refused.
  @inline(never)
  func wipeFirstPass(_ record: Argon2MappingRecord) {
    let g = geometry
    for lane in 0..<g.lanes {
      let blocks = Swift.min(g.laneLength, Swift.max(2, record.filledSegments(lane: lane) * g.segmentLength))
      // SAFETY: blocks <= laneLength, so the range lies inside lane `lane`, inside the memory.
      block(lane * g.laneLength).update(repeating: Argon2Register(), count: blocks * argon2RegistersPerBlock)
    }
  }

  /// The memory of the segment of `lane` in slice `slice`, for a caller's page-mapping hook.
  func segmentMemory(lane: Int, slice: Int) -> UnsafeMutableRawBufferPointer {
    let g = geometry
    // SAFETY: lane < lanes and slice < 4, so the segment's blocks lie in the memory.
    let start = block(lane * g.laneLength + slice * g.segmentLength)
    return UnsafeMutableRawBufferPointer(start: start, count: g.segmentLength * 1024)
  }

  /// Writes one zero word per 4 KiB of the blocks of slice `slice` in every lane, so that the operating
  /// system maps those pages now rather than when pass 0 first writes them. A spare task calls this for
  /// slice s + 1 while the lanes fill slice s of the first pass.
  ///
  /// SAFETY: in pass 0, while slice s is being filled, no task reads or writes a block of slice s + 1: a
  /// segment writes only its own slice, and references only point to finished slices (RFC 9106 §3.4).
  /// The slice's blocks are in the memory, and the driver's sync point after slice s orders these writes
  /// before the writes of slice s + 1. The zeros are overwritten by G without being read.
  func prefault(slice: Int) {
    let g = geometry
    let stride = 4096 / MemoryLayout<Argon2Register>.stride
    let registers = g.segmentLength * argon2RegistersPerBlock
    for lane in 0..<g.lanes {
      let start = block(lane * g.laneLength + slice * g.segmentLength)
      var offset = 0
      while offset < registers {
        start[offset] = Argon2Register()
        offset += stride
      }
    }
  }

  /// Fills segment `slice` of `lane` in pass `pass` (RFC 9106 §3.2 steps 5-6).
  ///
  /// Two prefetches (`Support/Prefetch.swift`) keep the loop from waiting for memory: the block two columns ahead
  /// (read in later passes, written in the first), and the reference block of block i+1, located as soon as the
  /// first column of block i is final (in Argon2d that column holds J1 and J2), so that its lines arrive while the
  /// seven other columns are computed. Measured at 256 MiB, one lane, passes after the first: 0.78 µs per block
  /// without them, 0.51-0.53 with them, 0.34 when every block is in cache. Loading the reference block early
  /// instead (software pipelining) gained far less (0.66): a load that misses holds up the instructions after it.
  func fillSegment(pass: Int, lane: Int, slice: Int) {
    let g = geometry
    let dataIndependent = Argon2Geometry.usesDataIndependentAddressing(variant: variant, pass: pass, slice: slice)
    let startIndex = (pass == 0 && slice == 0) ? 2 : 0
    guard startIndex < g.segmentLength else { return }
    let withXor = version == .v0x13 && pass > 0
    let laneStart = lane * g.laneLength
    // Scratch: R and the final XOR term of G for data blocks, the same two for address blocks, then the
    // input and address blocks of RFC 9106 §3.4.2.
    // SAFETY: the scratch is this call's own stack/heap block of 6 * 64 registers, never escaping the closure;
    // Argon2Register is trivial, and every register is written before it is read: `input` is initialised just
    // below, `address` by nextAddresses before the first `slot == 0` read, r/t/r2/t2 by each rowPass before the
    // columnPass that reads them.
    withUnsafeTemporaryAllocation(of: Argon2Register.self, capacity: 6 * argon2RegistersPerBlock) { scratch in
      guard let r = scratch.baseAddress else { preconditionFailure("no scratch memory") }
      // SAFETY: the scratch holds 6 blocks of 64 registers: r, t, r2, t2, input and address below.
      let t = r + 64
      let r2 = r + 128
      let t2 = r + 192
      let input = r + 256
      let address = r + 320
      if dataIndependent {
        input.initialize(repeating: Argon2Register(), count: 64)
        input[0] = Argon2Register(UInt64(pass), UInt64(lane))
        input[1] = Argon2Register(UInt64(slice), UInt64(g.blockCount))
        input[2] = Argon2Register(UInt64(passes), UInt64(variant.rawValue))
        if startIndex != 0 { Argon2Instance.nextAddresses(input: input, address: address, r: r2, t: t2) }
      }
      // RFC 9106 §3.4: the reference block of block `index`, whose previous block is `previous`.
      // SAFETY: refLane is in 0..<lanes and referenceColumn returns a column in 0..<laneLength, so the
      // block lies in the memory.
      func reference(index: Int, previous: UnsafeMutablePointer<Argon2Register>) -> UnsafeMutablePointer<
        Argon2Register
      > {
        let pseudoRandom: UInt64
        if dataIndependent {
          let slot = index & 127
          if slot == 0 { Argon2Instance.nextAddresses(input: input, address: address, r: r2, t: t2) }
          pseudoRandom = address[slot >> 1][slot & 1]
        } else {
          pseudoRandom = previous[0][0]
        }
        // RFC 9106 §3.4.1: J2 picks the lane (the current lane in the first slice of the first pass).
        let refLane =
          (pass == 0 && slice == 0) ? lane : Int(truncatingIfNeeded: (pseudoRandom >> 32) % UInt64(g.lanes))
        let refColumn = g.referenceColumn(
          pass: pass, slice: slice, index: index, pseudoRandom: UInt32(truncatingIfNeeded: pseudoRandom),
          sameLane: refLane == lane)
        return block(refLane * g.laneLength + refColumn)
      }
      var column = slice * g.segmentLength + startIndex
      // SAFETY: column and the previous column are in 0..<laneLength, so both blocks lie in the lane.
      var previous = block(laneStart + (column == 0 ? g.laneLength - 1 : column - 1))
      var referenceBlock = reference(index: startIndex, previous: previous)
      var index = startIndex
      while true {
        // SAFETY: column < laneLength (index < segmentLength), so the block lies in the lane.
        let current = block(laneStart + column)
        if column + 2 < g.laneLength {
          // SAFETY: a prefetch only hints; column + 2 < laneLength keeps the address inside the lane anyway.
          let ahead = UnsafeRawPointer(block(laneStart + column + 2))
          if withXor {
            for line in 0..<16 { prefetchForReading(ahead + 64 * line) }
          } else {
            for line in 0..<16 { prefetchForWriting(ahead + 64 * line) }
          }
        }
        Argon2Instance.rowPass(previous, referenceBlock, r: r, t: t, out: current, withXor: withXor)
        Argon2Instance.columnPass(0, r, t: t, out: current)
        guard index + 1 < g.segmentLength else {
          Argon2Instance.columnPass(1, r, t: t, out: current)
          for c in stride(from: 2, to: 8, by: 2) { Argon2Instance.columnPasses(c, r, t: t, out: current) }
          break
        }
        // Column 0 of `current` is final, and so is word 0 (J1, J2 for the next block).
        let next = reference(index: index + 1, previous: current)
        // SAFETY: `next` is a block inside the memory (reference's note); prefetching its 16 cache lines only hints.
        for line in 0..<16 { prefetchForReading(UnsafeRawPointer(next) + 64 * line) }
        Argon2Instance.columnPass(1, r, t: t, out: current)
        for c in stride(from: 2, to: 8, by: 2) { Argon2Instance.columnPasses(c, r, t: t, out: current) }
        previous = current
        referenceBlock = next
        index += 1
        column += 1
      }
    }
  }

  /// RFC 9106 §3.4.2: increments the counter of the input block Z and sets
  /// `address = G(ZERO, G(ZERO, Z))`.
  // SAFETY: the four pointers are 64-register blocks of fillSegment's scratch (disjoint offsets 256, 320,
  // 128, 192); input[3] is inside `input`, and rowPass/columnPasses index registers below 64.
  static func nextAddresses(
    input: UnsafeMutablePointer<Argon2Register>, address: UnsafeMutablePointer<Argon2Register>,
    r: UnsafeMutablePointer<Argon2Register>, t: UnsafeMutablePointer<Argon2Register>
  ) {
    input[3][0] &+= 1
    rowPass(input, nil, r: r, t: t, out: address, withXor: false)
    for c in stride(from: 0, to: 8, by: 2) { columnPasses(c, r, t: t, out: address) }
    rowPass(address, nil, r: r, t: t, out: address, withXor: false)
    for c in stride(from: 0, to: 8, by: 2) { columnPasses(c, r, t: t, out: address) }
  }

  /// The first half of G (RFC 9106 §3.5): `R = X XOR Y` (or `R = X` without `y`), then P on each row of R into
  /// `r`, two rows at a time. Keeps the final XOR term in `t`: R, or `R XOR out` when `withXor` (v1.3 passes after
  /// the first). All pointers address 64 registers; `x` may be `out`.
  @inline(__always)
  // SAFETY: registers 8 * row + 0...15 with row <= 6 stay below 64 in every block; `x` may be `out`, as
  // rowPass only reads those two and writes `r` and `t`, distinct scratch blocks that alias neither.
  static func rowPass(
    _ x: UnsafeMutablePointer<Argon2Register>, _ y: UnsafeMutablePointer<Argon2Register>?,
    r: UnsafeMutablePointer<Argon2Register>, t: UnsafeMutablePointer<Argon2Register>,
    out: UnsafeMutablePointer<Argon2Register>, withXor: Bool
  ) {
    for row in stride(from: 0, to: 8, by: 2) {
      let first = 8 * row
      let second = first + 8
      var q = load(x, first, stride: 1)
      var p = load(x, second, stride: 1)
      if let y {
        q = xor(q, load(y, first, stride: 1))
        p = xor(p, load(y, second, stride: 1))
      }
      if withXor {
        store(xor(q, load(out, first, stride: 1)), t, first, stride: 1)
        store(xor(p, load(out, second, stride: 1)), t, second, stride: 1)
      } else {
        store(q, t, first, stride: 1)
        store(p, t, second, stride: 1)
      }
      permute(&q, &p)
      store(q, r, first, stride: 1)
      store(p, r, second, stride: 1)
    }
  }

  /// The second half of G (RFC 9106 §3.5) for column `c` (registers c, c+8, ..., c+56): P on the column of
  /// `r`, XORed with `t` into `out`. All pointers address 64 registers.
  @inline(__always)
  // SAFETY: registers c + 8k (k <= 7, c <= 1) stay below 64.
  static func columnPass(
    _ c: Int, _ r: UnsafeMutablePointer<Argon2Register>, t: UnsafeMutablePointer<Argon2Register>,
    out: UnsafeMutablePointer<Argon2Register>
  ) {
    var q = load(r, c, stride: 8)
    permute(&q)
    store(xor(q, load(t, c, stride: 8)), out, c, stride: 8)
  }

  /// ``columnPass(_:_:t:out:)`` for columns `c` and `c + 1` at once.
  @inline(__always)
  // SAFETY: registers c + 1 + 8k with c <= 6 and k <= 7 stay below 64 (63 at most).
  static func columnPasses(
    _ c: Int, _ r: UnsafeMutablePointer<Argon2Register>, t: UnsafeMutablePointer<Argon2Register>,
    out: UnsafeMutablePointer<Argon2Register>
  ) {
    var q = load(r, c, stride: 8)
    var p = load(r, c + 1, stride: 8)
    permute(&q, &p)
    store(xor(q, load(t, c, stride: 8)), out, c, stride: 8)
    store(xor(p, load(t, c + 1, stride: 8)), out, c + 1, stride: 8)
  }

  /// Registers `start`, `start + stride`, ..., `start + 7 * stride` of `block` (a row with stride 1, a column
  /// with stride 8). The caller keeps `start + 7 * stride` below 64.
  @inline(__always)
  // SAFETY: every caller keeps start + 7 * stride <= 63 (rows: start <= 56, stride 1; columns: start <= 7,
  // stride 8), so all eight registers lie in the 64-register block.
  static func load(_ block: UnsafeMutablePointer<Argon2Register>, _ start: Int, stride: Int) -> Argon2Octet {
    (
      block[start], block[start + stride], block[start + 2 * stride], block[start + 3 * stride],
      block[start + 4 * stride], block[start + 5 * stride], block[start + 6 * stride], block[start + 7 * stride]
    )
  }

  /// Stores `q` where ``load(_:_:stride:)`` reads.
  @inline(__always)
  // SAFETY: the same indices as load, inside the 64-register block.
  static func store(_ q: Argon2Octet, _ block: UnsafeMutablePointer<Argon2Register>, _ start: Int, stride: Int) {
    block[start] = q.0
    block[start + stride] = q.1
    block[start + 2 * stride] = q.2
    block[start + 3 * stride] = q.3
    block[start + 4 * stride] = q.4
    block[start + 5 * stride] = q.5
    block[start + 6 * stride] = q.6
    block[start + 7 * stride] = q.7
  }

  @inline(__always)
  static func xor(_ q: Argon2Octet, _ p: Argon2Octet) -> Argon2Octet {
    (q.0 ^ p.0, q.1 ^ p.1, q.2 ^ p.2, q.3 ^ p.3, q.4 ^ p.4, q.5 ^ p.5, q.6 ^ p.6, q.7 ^ p.7)
  }

  /// RFC 9106 §3.6: the permutation P on eight registers holding the words v0...v15 (register k holds
  /// v(2k) and v(2k+1)).
  @inline(__always)
  static func permute(_ q: inout Argon2Octet) {
    // Columns: GB(v0, v4, v8, v12), GB(v1, v5, v9, v13) and GB(v2, v6, v10, v14), GB(v3, v7, v11, v15).
    mix(&q.0, &q.2, &q.4, &q.6, &q.1, &q.3, &q.5, &q.7)
    // Diagonals: GB(v0, v5, v10, v15), GB(v1, v6, v11, v12) and GB(v2, v7, v8, v13), GB(v3, v4, v9, v14).
    var diagonal = diagonalRegisters(q)
    mix(&q.0, &diagonal.0, &q.5, &diagonal.2, &q.1, &diagonal.1, &q.4, &diagonal.3)
    restoreRegisters(&q, from: diagonal)
  }

  /// P on two independent octets at once (two rows, or two columns), with their eight GB chains interleaved
  /// step by step: the SSE2 code then has four independent chains to schedule instead of two, which took the
  /// compression of a cached block from 0.40 to 0.34 µs.
  @inline(__always)
  static func permute(_ q: inout Argon2Octet, _ p: inout Argon2Octet) {
    mix(&q.0, &q.2, &q.4, &q.6, &q.1, &q.3, &q.5, &q.7, &p.0, &p.2, &p.4, &p.6, &p.1, &p.3, &p.5, &p.7)
    var diagonalQ = diagonalRegisters(q)
    var diagonalP = diagonalRegisters(p)
    mix(
      &q.0, &diagonalQ.0, &q.5, &diagonalQ.2, &q.1, &diagonalQ.1, &q.4, &diagonalQ.3,
      &p.0, &diagonalP.0, &p.5, &diagonalP.2, &p.1, &diagonalP.1, &p.4, &diagonalP.3)
    restoreRegisters(&q, from: diagonalQ)
    restoreRegisters(&p, from: diagonalP)
  }

  /// The registers the diagonal step of P needs rotated by one word: (v5, v6), (v7, v4), (v15, v12), (v13, v14).
  @inline(__always)
  static func diagonalRegisters(
    _ q: Argon2Octet
  ) -> (Argon2Register, Argon2Register, Argon2Register, Argon2Register) {
    (
      Argon2Register(q.2[1], q.3[0]), Argon2Register(q.3[1], q.2[0]), Argon2Register(q.7[1], q.6[0]),
      Argon2Register(q.6[1], q.7[0])
    )
  }

  /// Puts the rotated registers of the diagonal step back in word order: the inverse of `diagonalRegisters`.
  @inline(__always)
  static func restoreRegisters(
    _ q: inout Argon2Octet, from diagonal: (Argon2Register, Argon2Register, Argon2Register, Argon2Register)
  ) {
    q.2 = Argon2Register(diagonal.1[1], diagonal.0[0])
    q.3 = Argon2Register(diagonal.0[1], diagonal.1[0])
    q.6 = Argon2Register(diagonal.2[1], diagonal.3[0])
    q.7 = Argon2Register(diagonal.3[1], diagonal.2[0])
  }

  /// RFC 9106 §3.6: GB on two pairs of columns (each register holds two), with the BlaMka multiplication
  /// `a + b + 2 * trunc(a) * trunc(b)` and rotations by 32, 24, 16 and 63, the two chains interleaved.
  @inline(__always)
  static func mix(
    _ a: inout Argon2Register, _ b: inout Argon2Register, _ c: inout Argon2Register, _ d: inout Argon2Register,
    _ a2: inout Argon2Register, _ b2: inout Argon2Register, _ c2: inout Argon2Register, _ d2: inout Argon2Register
  ) {
    a = blaMka(a, b)
    a2 = blaMka(a2, b2)
    d = rotateRight(d ^ a, 32)
    d2 = rotateRight(d2 ^ a2, 32)
    c = blaMka(c, d)
    c2 = blaMka(c2, d2)
    b = rotateRight(b ^ c, 24)
    b2 = rotateRight(b2 ^ c2, 24)
    a = blaMka(a, b)
    a2 = blaMka(a2, b2)
    d = rotateRight(d ^ a, 16)
    d2 = rotateRight(d2 ^ a2, 16)
    c = blaMka(c, d)
    c2 = blaMka(c2, d2)
    b = rotateRight(b ^ c, 63)
    b2 = rotateRight(b2 ^ c2, 63)
  }

  /// GB on four pairs of columns, the four chains interleaved (see `mix` for two).
  @inline(__always)
  static func mix(
    _ a: inout Argon2Register, _ b: inout Argon2Register, _ c: inout Argon2Register, _ d: inout Argon2Register,
    _ a2: inout Argon2Register, _ b2: inout Argon2Register, _ c2: inout Argon2Register, _ d2: inout Argon2Register,
    _ a3: inout Argon2Register, _ b3: inout Argon2Register, _ c3: inout Argon2Register, _ d3: inout Argon2Register,
    _ a4: inout Argon2Register, _ b4: inout Argon2Register, _ c4: inout Argon2Register, _ d4: inout Argon2Register
  ) {
    a = blaMka(a, b)
    a2 = blaMka(a2, b2)
    a3 = blaMka(a3, b3)
    a4 = blaMka(a4, b4)
    d = rotateRight(d ^ a, 32)
    d2 = rotateRight(d2 ^ a2, 32)
    d3 = rotateRight(d3 ^ a3, 32)
    d4 = rotateRight(d4 ^ a4, 32)
    c = blaMka(c, d)
    c2 = blaMka(c2, d2)
    c3 = blaMka(c3, d3)
    c4 = blaMka(c4, d4)
    b = rotateRight(b ^ c, 24)
    b2 = rotateRight(b2 ^ c2, 24)
    b3 = rotateRight(b3 ^ c3, 24)
    b4 = rotateRight(b4 ^ c4, 24)
    a = blaMka(a, b)
    a2 = blaMka(a2, b2)
    a3 = blaMka(a3, b3)
    a4 = blaMka(a4, b4)
    d = rotateRight(d ^ a, 16)
    d2 = rotateRight(d2 ^ a2, 16)
    d3 = rotateRight(d3 ^ a3, 16)
    d4 = rotateRight(d4 ^ a4, 16)
    c = blaMka(c, d)
    c2 = blaMka(c2, d2)
    c3 = blaMka(c3, d3)
    c4 = blaMka(c4, d4)
    b = rotateRight(b ^ c, 63)
    b2 = rotateRight(b2 ^ c2, 63)
    b3 = rotateRight(b3 ^ c3, 63)
    b4 = rotateRight(b4 ^ c4, 63)
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

/// What a first pass with a page-mapping hook (``Argon2/MemoryPrefault``) has done so far: for each work item, whether
/// a hook call it made failed, and for each lane, how many first-pass segments it filled. Drivers check the failures
/// after every round, and wipe only what was filled when they stop (``Argon2Instance/wipeFirstPass(_:)``).
///
/// SAFETY: slot i is written only by the thread running work item i of the current round (each item runs once per
/// round), and read by the calling thread only after the round's sync point, which orders every write of the round
/// before it (the same ordering the block memory relies on). The storage is allocated and initialized for
/// `slotCount` slots in `init` and freed in `deinit`, after the last round.
final class Argon2MappingRecord: @unchecked Sendable {
  private let slotCount: Int
  private let failures: UnsafeMutablePointer<Bool>
  private let segments: UnsafeMutablePointer<Int>

  /// A record for `lanes` lanes and up to `lanes + 1` work items per round.
  init(lanes: Int) {
    slotCount = lanes + 1
    failures = .allocate(capacity: slotCount)
    failures.initialize(repeating: false, count: slotCount)
    segments = .allocate(capacity: slotCount)
    segments.initialize(repeating: 0, count: slotCount)
  }

  deinit {
    failures.deallocate()
    segments.deallocate()
  }

  /// Notes that a hook call of work item `item` reported failure.
  func recordFailure(item: Int) {
    precondition(item >= 0 && item < slotCount)
    failures[item] = true
  }

  /// Notes that `lane` has filled its first `count` first-pass segments.
  func recordFilled(lane: Int, segments count: Int) {
    precondition(lane >= 0 && lane < slotCount)
    segments[lane] = count
  }

  /// The first-pass segments `lane` filled.
  func filledSegments(lane: Int) -> Int {
    precondition(lane >= 0 && lane < slotCount)
    return segments[lane]
  }

  /// Whether any hook call failed (read after a sync point).
  var failed: Bool {
    for slot in 0..<slotCount where failures[slot] { return true }
    return false
  }
}

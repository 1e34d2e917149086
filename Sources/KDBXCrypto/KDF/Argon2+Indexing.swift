// Argon2 indexing: which earlier block the next block references (RFC 9106 §3.4).

/// The shape of the block memory: lanes of `laneLength` blocks, each cut into four segments
/// (RFC 9106 §3.2 step 3, §3.4). All counts are in 1 KiB blocks.
@usableFromInline
struct Argon2Geometry: Sendable {
  /// The number of lanes, p.
  let lanes: Int
  /// The blocks per lane, q = m' / p.
  let laneLength: Int
  /// The blocks per segment, q / 4 (there are four slices, the "sync points" of RFC 9106 §3.4).
  let segmentLength: Int
  /// The total number of blocks, m'.
  var blockCount: Int { lanes * laneLength }

  /// The number of slices per pass (RFC 9106 §3.4: SL = 4).
  static let syncPoints = 4

  /// RFC 9106 §3.4.1: the column of the block that block `index` of segment (`pass`, `slice`) references.
  ///
  /// - Parameters:
  ///   - pseudoRandom: J1, the low 32 bits of the pseudo-random value.
  ///   - sameLane: whether the reference lane (J2 mod p, or the current lane in the first slice of the
  ///     first pass) is the lane being filled.
  /// - Returns: the column `z` in `0..<laneLength` of the reference block within its lane.
  @inline(__always)
  func referenceColumn(pass: Int, slice: Int, index: Int, pseudoRandom: UInt32, sameLane: Bool) -> Int {
    // The reference set R: every block already finished in the reference lane, except the block just
    // before the current one. In another lane, blocks of the current slice are not finished, and the
    // last block of the previous slice is excluded when the current block is the first of its segment.
    let finished = pass == 0 ? slice * segmentLength : laneLength - segmentLength
    let areaSize: Int
    if sameLane {
      areaSize = finished + index - 1
    } else {
      areaSize = finished - (index == 0 ? 1 : 0)
    }
    // RFC 9106 §3.4.1.1: x = J1^2 / 2^32, y = (|R| * x) / 2^32, zz = |R| - 1 - y.
    let j1 = UInt64(pseudoRandom)
    let x = (j1 &* j1) >> 32
    let y = (UInt64(truncatingIfNeeded: areaSize) &* x) >> 32
    let relative = areaSize - 1 - Int(truncatingIfNeeded: y)
    // R starts right after the current segment in later passes, at column 0 in the first pass.
    let start = (pass == 0 || slice == Argon2Geometry.syncPoints - 1) ? 0 : (slice + 1) * segmentLength
    let column = start + relative
    return column >= laneLength ? column - laneLength : column
  }

  /// RFC 9106 §3.4.2: whether segment (`pass`, `slice`) computes J1 and J2 from address blocks
  /// (data-independent) rather than from the previous block.
  @inline(__always)
  static func usesDataIndependentAddressing(variant: Argon2.Variant, pass: Int, slice: Int) -> Bool {
    switch variant {
    case .d: return false
    case .i: return true
    case .id: return pass == 0 && slice < syncPoints / 2
    }
  }
}

import VectorSupport

/// Locates `../shared/corpus` (the acceptance corpus kept outside the repository). Tests that need it skip with a
/// recorded note when it is absent.
enum Corpus {
  static let root: String? = {
    for candidate in [Vectors.repositoryRoot + "/../shared/corpus", Vectors.repositoryRoot + "/../../shared/corpus"] {
      if Vectors.readFile(atPath: candidate + "/MANIFEST.tsv") != nil { return candidate }
    }
    print("note: ../shared/corpus is absent; corpus tests are skipped")
    return nil
  }()

  static var isAvailable: Bool { root != nil }

  static func file(_ relativePath: String) -> [UInt8]? {
    guard let root else { return nil }
    return Vectors.readFile(atPath: root + "/" + relativePath)
  }
}

/// A deterministic PRNG (SplitMix64) for property tests.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  mutating func bytes(_ count: Int) -> [UInt8] {
    (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) }
  }
}

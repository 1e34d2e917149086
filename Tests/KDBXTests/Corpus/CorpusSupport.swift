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

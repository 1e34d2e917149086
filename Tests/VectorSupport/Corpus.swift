/// Locates `../shared/corpus` (the acceptance corpus kept outside the repository), for every test target that reads
/// it. Tests that need it skip with a recorded note when it is absent.
public enum Corpus {
  public static let root: String? = {
    for candidate in [Vectors.repositoryRoot + "/../shared/corpus", Vectors.repositoryRoot + "/../../shared/corpus"] {
      if Vectors.readFile(atPath: candidate + "/MANIFEST.tsv") != nil { return candidate }
    }
    print("note: ../shared/corpus is absent; corpus tests are skipped")
    return nil
  }()

  public static var isAvailable: Bool { root != nil }

  public static func file(_ relativePath: String) -> [UInt8]? {
    guard let root else { return nil }
    return Vectors.readFile(atPath: root + "/" + relativePath)
  }
}

/// What the build knew about its source.
///
/// In the repository ``commit`` is `nil`, and `kdbx --version` says the commit is unknown: a development build
/// may hold changes that no commit has, so it names none. The release script (`.ci/release.sh`) writes the commit
/// it builds here (with `+modified` when the work tree differs from it), builds, and puts this file back.
enum BuildInfo {
  /// The commit the release script built from; `nil` in any other build.
  static let commit: String? = nil
  /// The date of that commit (YYYY-MM-DD), the date of the manual page; `nil` in any other build.
  static let commitDate: String? = nil

  /// `kdbx --version`: the version and the commit this binary was built from, when it is known.
  static func versionLine(_ version: String) -> String {
    "kdbx \(version) (" + (commit.map { "commit \($0)" } ?? "commit unknown: not a release build") + ")"
  }
}

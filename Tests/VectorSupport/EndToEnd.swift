import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// The switch for the suites that drive processes rather than the library: the `kdbx` binary end to end, the
/// peers (keepassxc-cli, pykeepass, KeePass 2 under mono) and the scale bounds. They take minutes, mostly in the
/// peers and in key derivations of a debug binary, so `swift test` reports them as skipped and they run with
///
///     KDBX_E2E=1 swift test -c release
///
/// (the README's "end-to-end tests"; CI runs exactly that).
public enum EndToEnd {
  /// Whether `KDBX_E2E=1` is set.
  public static let isEnabled: Bool = {
    guard let value = getenv("KDBX_E2E") else { return false }
    return String(cString: value) == "1"
  }()

  /// The reason shown beside each skipped suite.
  public static let skipReason: Comment = "end-to-end suite: run with KDBX_E2E=1 swift test -c release"

  /// The package's root directory, from this file's path.
  public static let root: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
  }()

  /// The `kdbx` binary of the build these tests belong to: `KDBX_BINARY` when set, else the `kdbx` beside the
  /// test executable (any build path: `.build/debug`, `.build/release`, a sanitizer's `--build-path`), else
  /// `.build/debug/kdbx` or `.build/release/kdbx` by configuration.
  public static let kdbxBinary: String = {
    if let value = getenv("KDBX_BINARY"), value.pointee != 0 { return String(cString: value) }
    if let executable = CommandLine.arguments.first, let slash = executable.lastIndex(of: "/") {
      let beside = String(executable[..<slash]) + "/kdbx"
      if access(beside, X_OK) == 0 { return beside }
    }
    #if DEBUG
      return root + "/.build/debug/kdbx"
    #else
      return root + "/.build/release/kdbx"
    #endif
  }()

  /// Whether the end-to-end suites run and the binary is there; prints why not when they are enabled but it is
  /// missing.
  public static let kdbxAvailable: Bool = {
    guard isEnabled else { return false }
    let found = access(kdbxBinary, X_OK) == 0
    if !found { print("note: SKIP: \(kdbxBinary) is missing (run `swift build` first)") }
    return found
  }()
}

import Foundation
import KDBX

#if KDBX_FOUNDATION_STANDIN
  import FoundationDarwinStandIn  // .ci/darwin-check.sh: the Apple declarations below, on Linux
#endif

/// Runs file accesses the way the platform lets several processes share a file: `NSFileCoordinator` on Apple
/// platforms, a plain call elsewhere. One small file, so that the Apple-only code is easy to review and to
/// type-check against a stand-in.
enum FileCoordination {
  enum Access { case reading, writing }

  #if canImport(Darwin) || KDBX_FOUNDATION_STANDIN
    /// Runs `body` inside a coordinated read or write of `url` (the coordinator may hand it another URL for the
    /// same file: a reading copy, the file's current location), with security-scoped access for a bookmarked URL.
    ///
    /// A write is coordinated `forReplacing` (the whole file is replaced by a rename). Coordination that fails
    /// (the file provider refuses, the file is gone) throws in words, and `body` does not run.
    static func coordinate(
      _ access: Access, _ url: URL, isSecurityScoped: Bool, _ body: (_ path: String) -> Void
    ) throws(VaultStorageError) {
      let scoped = isSecurityScoped && url.startAccessingSecurityScopedResource()
      defer { if scoped { url.stopAccessingSecurityScopedResource() } }
      let coordinator = NSFileCoordinator(filePresenter: nil)
      var failure: NSError? = nil
      switch access {
      case .reading:
        coordinator.coordinate(readingItemAt: url, options: [], error: &failure) { actual in body(actual.path) }
      case .writing:
        coordinator.coordinate(writingItemAt: url, options: .forReplacing, error: &failure) { actual in
          body(actual.path)
        }
      }
      if let failure {
        let reason = "file coordination failed: \(failure.localizedDescription)"
        switch access {
        case .reading: throw .readFailed(location: url.path, reason: reason)
        case .writing: throw .writeFailed(location: url.path, reason: reason)
        }
      }
    }
  #else
    /// No file coordination on this platform: runs `body` on `url`'s path (the file storage's lock and version
    /// check still keep cooperating writers apart).
    static func coordinate(
      _ access: Access, _ url: URL, isSecurityScoped: Bool, _ body: (_ path: String) -> Void
    ) throws(VaultStorageError) {
      body(url.path)
    }
  #endif
}

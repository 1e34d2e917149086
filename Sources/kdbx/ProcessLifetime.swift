import KDBX

/// Values that live until the process exits. A command is one short process: freeing a large database object by
/// object when the command returns costs tens of milliseconds that the kernel does for free at exit.
enum ProcessLifetime {
  nonisolated(unsafe) private static var kept: [OpenedDatabase] = []

  /// Keeps `opened` alive until exit (the CLI is single-threaded; this runs on the main thread only).
  static func keep(_ opened: OpenedDatabase) { kept.append(opened) }

  /// Lets go of everything kept (`kdbx open` locking its vault).
  static func releaseAll() { kept.removeAll() }
}

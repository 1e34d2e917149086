import KDBX
import KDBXCrypto
import KDBXFileIO
import KDBXImport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// KeePass 1.x (`.kdb`) files in the CLI, detected by their signature, never by the file name: commands that read
/// a vault open them (converted to the KDBX model in memory), commands that change one refuse them, and
/// `kdbx import` converts them to a new KDBX file.
enum KeePass1Access {
  /// Commands that save the vault named first.
  static let changingCommands: Set<String> = [
    "add", "edit", "rm", "mv", "mkdir", "rmdir", "attachment-import", "attachment-rm", "merge", "convert",
    "db-edit",
  ]

  /// Why a KeePass 1.x file at `path` cannot be changed.
  static func readOnlyMessage(_ path: String) -> String {
    "KeePass 1.x files are read-only here; convert with kdbx import \(path) NEW.kdbx"
  }

  /// Opens a KeePass 1.x file with the CLI's KDF settings, shaped as an opened KDBX file.
  static func openDatabase(bytes: [UInt8], key: CompositeKey, progress: ((Double) -> Bool)?) throws(KDBXError)
    -> OpenedDatabase
  {
    var system = SystemRandomNumberGenerator()
    var random = ChaCha20RandomNumberGenerator(seededFrom: &system)
    let opened = try KDB1File.open(
      bytes: bytes, key: key, primitives: KDFTuning.primitives(progress: progress), clock: SystemClock(),
      random: &random)
    return OpenedDatabase(importing: opened)
  }

  /// Throws the read-only message when `opened` came from a KeePass 1.x file.
  static func refuseChange(_ opened: OpenedDatabase, path: String) throws(CLIError) {
    if opened.isKeePass1 { throw .failure(readOnlyMessage(path)) }
  }

  /// Before a command that changes a vault asks for a password: refuses when its first argument is a KeePass 1.x
  /// file. (A vault named after options is still refused when it would be saved.)
  static func refuseEarly(command: String, arguments: [String]) throws(CLIError) {
    guard changingCommands.contains(command), let path = arguments.first, !path.hasPrefix("-") else { return }
    if startsWithSignature(path) { throw .failure(readOnlyMessage(path)) }
  }

  /// Whether the file at `path` starts with the KeePass 1.x signatures (reads 8 bytes; `false` when unreadable).
  static func startsWithSignature(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var head = [UInt8](repeating: 0, count: 8)
    // SAFETY: `head` holds 8 bytes, and `read` writes at most 8 into them, inside the closure.
    let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 8) }
    return count == 8 && KDB1File.isKDB1(head)
  }
}

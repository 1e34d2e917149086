import KDBX
import KDBXBase

/// The kinds of file ``VaultImport`` recognises, from their content (never their name).
public enum ImportFormat: Sendable, Equatable, CaseIterable {
  /// A KeePass 2 XML export (KeePass's "KeePass XML (2.x)", `keepassxc-cli export`, `kdbx export`).
  case keePassXML
  /// A CSV export with a header row (RFC 4180), as KeePassXC, `kdbx export --format csv` and most managers write.
  case csv
  /// Bitwarden's unencrypted JSON export, personal or organization.
  case bitwardenJSON
  /// 1Password's unencrypted `.1pux` export (a zip archive).
  case onePassword1PUX
  /// A KeePass 1.x database (`.kdb`). Not imported here: `KDBXFile.open` opens it with its password and key file,
  /// and a save writes it as KDBX.
  case keePass1
  /// A KDBX database already: nothing to import.
  case kdbx

  /// The format's name as users know it ("Bitwarden JSON").
  public var name: String {
    switch self {
    case .keePassXML: return "KeePass 2 XML"
    case .csv: return "CSV"
    case .bitwardenJSON: return "Bitwarden JSON"
    case .onePassword1PUX: return "1Password 1PUX"
    case .keePass1: return "KeePass 1.x"
    case .kdbx: return "KDBX"
    }
  }

  /// The kind of file `bytes` holds, from its first bytes: the KeePass signatures, a zip archive, `<`, `{` or `[`,
  /// and any other UTF-8 text as CSV. `nil` for empty input (or only white space) and for bytes that are none of
  /// these.
  public static func detect(_ bytes: [UInt8]) -> ImportFormat? {
    if KDB1File.isKDB1(bytes) { return .keePass1 }
    if (try? KDBXFile.readVersion(bytes: bytes)) != nil { return .kdbx }
    if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
      return .onePassword1PUX
    }
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
    guard start < bytes.count else { return nil }
    switch bytes[start] {
    case 0x3C: return .keePassXML
    case 0x7B, 0x5B: return .bitwardenJSON
    default: return isUTF8(bytes) ? .csv : nil
    }
  }

  /// Whether `bytes` are valid UTF-8 (RFC 3629; the shared check in KDBXBase), checked without making a copy (a
  /// `String` of them would be one).
  static func isUTF8(_ bytes: [UInt8]) -> Bool { UTF8Bytes.isValid(bytes) }
}

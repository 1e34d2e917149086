/// The KDBX file format versions, as the outer header's version field gives them (a `UInt32` whose high 16 bits are
/// the major and low 16 bits the minor version; KDBX 4.1 specification, "Header").
///
/// KDBX 2.x, 3.0 and 3.1 share the 3.x container (2-byte header field lengths, hashed block stream) and are read by
/// the same code; 4.0 and 4.1 share the 4.x container.
///
/// ```swift
/// let version = try KDBXFile.readVersion(bytes: fileBytes)  // no key needed
/// show("Format", "KDBX \(version.name)")
/// let canUseArgon2 = version >= .v4_0
/// ```
public enum KDBXVersion: Sendable, Hashable, Comparable {
  /// KDBX 2.x, written by KeePass 2.00-2.19 and early KeePassX 2: the 3.x container without `Meta/HeaderHash`,
  /// with attachments inline in the entries or in `Meta/Binaries`. Read only: a save writes ``v3_1`` instead
  /// (``SaveSettings/init(keeping:)`` and `VersionRequirements.effectiveVersion(for:settings:)`). The legacy
  /// ArcFour-variant inner stream (ID 1) is refused with ``KDBXError/unsupportedInnerRandomStream(id:)``.
  case v2
  /// KDBX 3.0.
  case v3_0
  /// KDBX 3.1, written by KeePass 2.20-2.34 and KeePassXC for content without 4.x features.
  case v3_1
  /// KDBX 4.0, written by KeePass 2.35-2.47.
  case v4_0
  /// KDBX 4.1, written by KeePass 2.48 and later.
  case v4_1

  /// Classifies a major/minor pair. KeePass accepts any minor version of a major version it knows.
  package init(major: UInt16, minor: UInt16) throws(KDBXError) {
    switch major {
    case 2: self = .v2
    case 3: self = minor == 0 ? .v3_0 : .v3_1
    case 4: self = minor == 0 ? .v4_0 : .v4_1
    default: throw .unsupportedVersion(major: major, minor: minor)
    }
  }

  /// The major version number.
  package var major: UInt16 {
    switch self {
    case .v2: return 2
    case .v3_0, .v3_1: return 3
    case .v4_0, .v4_1: return 4
    }
  }

  /// The minor version number this library writes for the version.
  package var minor: UInt16 {
    switch self {
    case .v2, .v3_0, .v4_0: return 0
    case .v3_1, .v4_1: return 1
    }
  }

  /// The version as KeePass writes it, for example "4.1".
  public var name: String {
    switch self {
    case .v2: return "2.0"
    case .v3_0: return "3.0"
    case .v3_1: return "3.1"
    case .v4_0: return "4.0"
    case .v4_1: return "4.1"
    }
  }

  /// Whether the file uses the KDBX 4 container: 4-byte header field lengths, KDF parameters, header HMAC, HMAC
  /// block stream and inner header.
  public var isKDBX4: Bool { major >= 4 }

  /// Whether times in the XML are written as base64 `Int64` seconds (KDBX 4.x) rather than ISO 8601 text.
  package var usesBinaryTimes: Bool { isKDBX4 }
}

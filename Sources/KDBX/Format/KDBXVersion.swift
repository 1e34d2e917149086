/// The KDBX file format versions this library reads and writes.
public enum KDBXVersion: Equatable, Sendable, Comparable {
  case v3_1
  case v4_0
  case v4_1

  /// The version as KeePass writes it, for example "4.1".
  public var name: String {
    switch self {
    case .v3_1: return "3.1"
    case .v4_0: return "4.0"
    case .v4_1: return "4.1"
    }
  }
}

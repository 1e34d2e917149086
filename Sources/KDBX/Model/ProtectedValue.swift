import KDBXBase

/// A secret value (a protected entry field such as a password) kept XOR-obfuscated in memory with a per-value
/// random pad, as KeePass's `ProtectedString` does, until ``reveal()`` is called.
///
/// The value never appears in ``description``, ``debugDescription`` or a `dump`. The obfuscation hides the value
/// from casual memory inspection only; it is not encryption against an attacker who can read the whole process.
///
/// ```swift
/// let secret = entry.password          // still obfuscated
/// log("password: \(secret)")           // logs "password: <protected>"
/// copyToPasteboard(secret.reveal())    // revealed when the user asks
/// entry.password = ProtectedValue(password)
/// ```
public struct ProtectedValue: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
  var masked: [UInt8]
  var pad: [UInt8]

  /// Protects `bytes` with a pad drawn from `generator`.
  public init(bytes: [UInt8], using generator: inout some RandomNumberGenerator) {
    var pad = [UInt8]()
    pad.reserveCapacity(bytes.count)
    var word: UInt64 = 0
    for index in 0..<bytes.count {
      if index % 8 == 0 { word = generator.next() }
      pad.append(UInt8(truncatingIfNeeded: word >> ((index % 8) * 8)))
    }
    var masked = bytes
    for index in 0..<masked.count { masked[index] ^= pad[index] }
    self.masked = masked
    self.pad = pad
  }

  /// Protects the UTF-8 bytes of `text`.
  public init(_ text: String, using generator: inout some RandomNumberGenerator) {
    self.init(bytes: Array(text.utf8), using: &generator)
  }

  /// Protects the UTF-8 bytes of `text` with a pad from the system's random number generator.
  public init(_ text: String) {
    var random = SystemRandomNumberGenerator()
    self.init(text, using: &random)
  }

  /// The plaintext bytes.
  public func revealBytes() -> [UInt8] {
    var out = masked
    for index in 0..<out.count { out[index] ^= pad[index] }
    return out
  }

  /// The plaintext as text (invalid UTF-8 is repaired with U+FFFD). The value itself keeps its bytes as they
  /// were read: ``revealBytes()`` gives them back and a save writes them unchanged.
  public func reveal() -> String { String(decoding: revealBytes(), as: UTF8.self) }

  /// Whether the plaintext is valid UTF-8 (RFC 3629). KeePass always writes valid UTF-8; a protected value that is
  /// not comes from another writer, or from a damaged `ProtectedStreamKey` in a KDBX 3.x file without
  /// `Meta/HeaderHash`, which decodes every protected value to garbage.
  package var isValidUTF8: Bool { UTF8Bytes.isValid(revealBytes()) }

  /// The plaintext as text, with each byte that is not part of valid UTF-8 given to `escape` (for example
  /// `{ "\\x" + hex($0) }`), so that a value that is not text can be shown without losing what it is.
  package func reveal(escapingInvalidBytes escape: (UInt8) -> String) -> String {
    UTF8Bytes.decode(revealBytes(), escapingInvalidBytes: escape)
  }

  /// The length of the plaintext in bytes.
  public var byteCount: Int { masked.count }

  /// Whether the plaintext is empty.
  public var isEmpty: Bool { masked.isEmpty }

  public var description: String { "<protected>" }
  public var debugDescription: String { "ProtectedValue(<protected>)" }

  /// Compares plaintexts; the loop does not stop at the first difference.
  public static func == (lhs: ProtectedValue, rhs: ProtectedValue) -> Bool {
    guard lhs.masked.count == rhs.masked.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<lhs.masked.count {
      difference |= (lhs.masked[index] ^ lhs.pad[index]) ^ (rhs.masked[index] ^ rhs.pad[index])
    }
    return difference == 0
  }
}

extension ProtectedValue: ExpressibleByStringLiteral {
  /// A protected value for a literal (for example a test's password), padded from the system's random number
  /// generator.
  public init(stringLiteral text: String) { self.init(text) }
}

#if !$Embedded
  extension ProtectedValue: CustomReflectable {
    /// A mirror with no children, so `dump` shows neither the value nor its pad.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
  }
#endif

/// Why an import was refused. Nothing is half-imported: an import either returns a whole database or throws.
///
/// ``reason`` answers the question an app's alert asks (is the file not an export at all, damaged, from a version
/// we cannot read, too large, or holding text a KeePass file cannot store?); ``description`` says in one sentence
/// what is wrong and where (a line, a record, an item), without any secret from the file.
public struct ImportError: Error, Sendable, CustomStringConvertible {
  /// The kind of problem.
  public enum Reason: Sendable, Equatable {
    /// The bytes are not an export this module reads (or are empty).
    case unrecognised
    /// An export of a known kind that is damaged or malformed (bad JSON, a broken zip member, a CSV row with the
    /// wrong number of fields).
    case malformed
    /// A known kind of export in a form this module does not read (an encrypted Bitwarden export, a zip method
    /// other than stored and deflate).
    case unsupported
    /// The export would make a database beyond the library's limits (group nesting, sizes), or spends more than
    /// the import's own limits allow.
    case tooLarge
    /// A name or plain value holds a character a KeePass file cannot store outside a protected value (XML 1.0
    /// characters only): imported, it would be dropped on save, so it is refused instead.
    case unstorableText
    /// The ``ImportOptions`` do not fit the file (a CSV column that does not exist, options for another format).
    case invalidOptions
  }

  /// The kind of problem.
  public var reason: Reason
  /// What is wrong, in words.
  public var description: String

  /// An error of `reason` described by `description`.
  public init(_ reason: Reason, _ description: String) {
    self.reason = reason
    self.description = description
  }

  static func unrecognised(_ text: String) -> ImportError { ImportError(.unrecognised, text) }
  static func malformed(_ text: String) -> ImportError { ImportError(.malformed, text) }
  static func unsupported(_ text: String) -> ImportError { ImportError(.unsupported, text) }
  static func tooLarge(_ text: String) -> ImportError { ImportError(.tooLarge, text) }
  static func unstorableText(_ text: String) -> ImportError { ImportError(.unstorableText, text) }
  static func invalidOptions(_ text: String) -> ImportError { ImportError(.invalidOptions, text) }
}

/// Errors thrown by `KDBXXML`, each with the 1-based line and column where the problem was found.
public struct XMLError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Equatable, Sendable {
    case malformed(String)
  }

  public var kind: Kind
  public var line: Int
  public var column: Int

  public init(_ kind: Kind, line: Int, column: Int) {
    self.kind = kind
    self.line = line
    self.column = column
  }

  public var description: String { "XML error at line \(line), column \(column): \(kind)" }
}

import KDBXBase
import Testing

/// Hex for the tests' inputs and outputs, through the library's own coder (`Hex` in KDBXBase): one definition for
/// every test target.
public enum TestHex {
  /// The bytes that `text` spells as pairs of hex digits (either case). Records a test failure and returns `[]`
  /// when `text` is not hex, so that a mistyped constant fails the test that uses it.
  public static func bytes(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    guard let bytes = Hex.decode(text) else {
      Issue.record("not hex: \(text.prefix(40))", sourceLocation: sourceLocation)
      return []
    }
    return bytes
  }

  /// `bytes` as lower-case hex digits.
  public static func string(_ bytes: some Sequence<UInt8>) -> String { Hex.encode(bytes) }
}

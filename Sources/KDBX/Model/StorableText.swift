/// Text a KeePass file can store in plain (unprotected) form: XML 1.0 characters only (§2.2 `Char`: tab, line
/// feed, carriage return and U+0020 and above, except U+FFFE and U+FFFF).
///
/// A save leaves out what XML 1.0 cannot carry, as KeePass (`StrUtil.SafeXmlString`) and KeePassXC do, so the CLI
/// and the importers refuse such a character in a plain field or a name instead of losing it quietly. Protected
/// values (passwords) are stored base64-encoded and may hold any character.
package enum StorableText {
  /// Whether XML 1.0 can carry `scalar`.
  package static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x20 { return value == 0x09 || value == 0x0A || value == 0x0D }
    return value != 0xFFFE && value != 0xFFFF
  }

  /// Why `text` (named `what` in the message, for example `--notes`) cannot be stored in a plain field, or `nil`
  /// when it can.
  package static func problem(_ text: String?, as what: String) -> String? {
    guard let text, let bad = text.unicodeScalars.first(where: { !isXMLCharacter($0) }) else { return nil }
    let code = String(bad.value, radix: 16, uppercase: true)
    return "\(what) contains U+\(String(repeating: "0", count: max(0, 4 - code.count)))\(code), which a KeePass file "
      + "cannot store outside a protected value (a save would drop it)"
  }
}

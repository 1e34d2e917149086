import KDBXBase
import KDBXXML

extension KeyFile {
  /// Parses `contents` as an XML document, returning its root element, or `nil` when the file is not XML (so the
  /// binary, hex and hashed forms are tried next, in KeePass's order). A UTF-8 byte order mark is skipped.
  /// This is the only place key files meet the XML reader (the `KDBXXML` tree reader, depth 16).
  static func xmlDocument(from contents: [UInt8]) throws(KDBXError) -> XMLElement? {
    var start = 0
    if contents.count >= 3, contents[0] == 0xEF, contents[1] == 0xBB, contents[2] == 0xBF { start = 3 }
    while start < contents.count, ASCII.isWhitespace(contents[start]) { start += 1 }
    guard start < contents.count, contents[start] == 0x3C else { return nil }
    // KeePass tries XML first and falls back to the other forms when the file is not a well-formed XML key file.
    var options = XMLReader.Options()
    options.limits.maximumDepth = 16
    return try? XMLElement.parse(Array(contents[start...]), options: options)
  }
}

import KDBXBase
import KDBXCrypto
import KDBXXML

/// A key file, turned into the key bytes it contributes to a ``CompositeKey``.
///
/// Forms, tried in KeePass's order (KeePass help, "Composite Master Key" and "Key file formats"):
/// 1. XML with root `KeyFile`: version 1.0 (also written "1.00") holds base64 `Key/Data`; version 2.0 holds hex
///    `Key/Data` (whitespace allowed) with a `Hash` attribute, the first 4 bytes of the data's SHA-256 in hex, which
///    must match. Once a file is recognised as an XML key file, any defect is an error, not a fallback.
/// 2. Exactly 32 bytes: used as is.
/// 3. Exactly 64 hexadecimal characters: decoded to 32 bytes.
/// 4. Anything else: the SHA-256 of the whole file.
///
/// The key bytes are secret: ``description`` shows only the form.
///
/// ```swift
/// let keyFile = try KeyFile(contents: keyFileBytes)  // any of the forms above
/// let key = CompositeKey(password: password, keyFile: keyFile)
/// ```
public struct KeyFile: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
  /// Which form the key file had.
  package enum Format: Sendable, Equatable {
    case xmlVersion1
    case xmlVersion2
    case binary32
    case hex64
    case hashed
  }

  /// The form the file was read in.
  package let format: Format
  /// The key bytes this file contributes to the composite key (32 bytes except for unusual XML v1.0 files).
  package let keyBytes: [UInt8]
  /// The key bytes a KeePass 1.x (`.kdb`) file takes from this key file: ``keyBytes``, except for XML key files,
  /// which KeePass 1.x does not know and hashes as any other file (SHA-256 of the contents; KeePass 1.x and
  /// KeePassXC's `KeePass1Reader::readKeyfile`). For a key file made from a parsed document
  /// (``init(xmlDocument:)``) the contents are unknown, and this is ``keyBytes``.
  package private(set) var keePass1KeyBytes: [UInt8]

  /// Reads a key file's contents.
  public init(contents: [UInt8]) throws(KDBXError) {
    try self.init(contents: contents, parsedXML: try KeyFile.xmlDocument(from: contents))
  }

  /// Reads a key file whose contents were already parsed as XML by the caller (`parsedXML` is the root element, or
  /// `nil` when the file is not well-formed XML). A document whose root is `KeyFile` is an XML key file; anything
  /// else falls through to the binary, hex and hashed forms.
  package init(contents: [UInt8], parsedXML: XMLElement?) throws(KDBXError) {
    if let document = parsedXML, document.name == KeyFileXMLNames.keyFile {
      self = try KeyFile(xmlDocument: document)
      keePass1KeyBytes = SHA256.hash(contents).bytes
      return
    }
    if contents.count == 32 {
      format = .binary32
      keyBytes = contents
    } else if contents.count == 64, let decoded = Hex.decode(utf8: contents) {
      format = .hex64
      keyBytes = decoded
    } else {
      format = .hashed
      keyBytes = SHA256.hash(contents).bytes
    }
    keePass1KeyBytes = keyBytes
  }

  /// A key file of the fourth form ("anything else") from the SHA-256 of its whole content, computed by the caller:
  /// for a file too large to hold in memory, in a stream. Use it only for content that
  /// `isCertainlyHashedForm(byteCount:prefix:)` says is of that form.
  ///
  /// - Throws: ``KDBXError/invalidKeyFile(reason:)`` when `digest` is not 32 bytes.
  public init(sha256OfContents digest: [UInt8]) throws(KDBXError) {
    guard digest.count == SHA256.digestByteCount else {
      throw .invalidKeyFile(reason: "a SHA-256 digest is 32 bytes, not \(digest.count)")
    }
    format = .hashed
    keyBytes = digest
    keePass1KeyBytes = digest
  }

  /// Whether a key file of `byteCount` bytes that starts with `prefix` is certainly of the fourth form, so that
  /// its key is the SHA-256 of its content and it can be hashed in a stream without being held in memory.
  ///
  /// It is when its size rules out the 32-byte and 64-hex forms and its start rules out an XML key file: the
  /// first byte after an optional UTF-8 byte order mark and whitespace is not `<`, or the document's first
  /// element (after the XML declaration, processing instructions and comments) is not `KeyFile`. When `prefix`
  /// ends before that is decided (or holds a DOCTYPE), the answer is `false`: read the whole file and use
  /// ``init(contents:)``.
  package static func isCertainlyHashedForm(byteCount: Int, prefix: [UInt8]) -> Bool {
    guard byteCount != 32 && byteCount != 64 && prefix.count <= byteCount else { return false }
    var index = 0
    if prefix.count >= 3, prefix[0] == 0xEF, prefix[1] == 0xBB, prefix[2] == 0xBF { index = 3 }
    func skipWhitespace() { while index < prefix.count, ASCII.isWhitespace(prefix[index]) { index += 1 } }
    /// Moves past the first `terminator` at or after `index`; `false` when the prefix ends first.
    func skip(past terminator: [UInt8]) -> Bool {
      var position = index
      while position + terminator.count <= prefix.count {
        if prefix[position..<(position + terminator.count)].elementsEqual(terminator) {
          index = position + terminator.count
          return true
        }
        position += 1
      }
      return false
    }
    skipWhitespace()
    if index == prefix.count { return prefix.count == byteCount }  // all of it read: not XML
    guard prefix[index] == 0x3C else { return true }  // KeePass tries XML only for content starting with '<'
    while index < prefix.count {
      skipWhitespace()
      guard index + 1 < prefix.count, prefix[index] == 0x3C else { return false }
      let next = prefix[index + 1]
      if next == 0x3F {  // "<?": the XML declaration or a processing instruction
        guard skip(past: [0x3F, 0x3E]) else { return false }
      } else if next == 0x21 {  // "<!": a comment, or a DOCTYPE (undecided here)
        guard index + 4 <= prefix.count, prefix[(index + 2)..<(index + 4)].elementsEqual([0x2D, 0x2D]) else {
          return false
        }
        index += 4
        guard skip(past: [0x2D, 0x2D, 0x3E]) else { return false }
      } else {
        // The first element: its name ends at whitespace, '/' or '>'. A prefixed name counts by its local part.
        var end = index + 1
        while end < prefix.count, !ASCII.isWhitespace(prefix[end]), prefix[end] != 0x2F, prefix[end] != 0x3E {
          end += 1
        }
        guard end < prefix.count, end > index + 1 else { return false }
        var name = prefix[(index + 1)..<end]
        if let colon = name.lastIndex(of: 0x3A) { name = name[(colon + 1)...] }
        return !name.elementsEqual(KeyFileXMLNames.keyFile.utf8)
      }
    }
    return false
  }

  /// Reads an XML key file from its parsed document (root element `KeyFile`).
  package init(xmlDocument root: XMLElement) throws(KDBXError) {
    guard root.name == KeyFileXMLNames.keyFile else { throw .invalidKeyFile(reason: "root element is not KeyFile") }
    guard let version = root.child(KeyFileXMLNames.meta)?.child(KeyFileXMLNames.version)?.textContent else {
      throw .invalidKeyFile(reason: "missing Meta/Version")
    }
    guard let data = root.child(KeyFileXMLNames.key)?.child(KeyFileXMLNames.data) else {
      throw .invalidKeyFile(reason: "missing Key/Data")
    }
    let versionText = version.trimmingASCIIWhitespace()
    if versionText == "1.0" || versionText == "1.00" {
      guard let decoded = Base64.decode(data.textContent, options: .lenient), !decoded.isEmpty else {
        throw .invalidKeyFile(reason: "Key/Data is not valid base64")
      }
      format = .xmlVersion1
      keyBytes = decoded
      keePass1KeyBytes = decoded
    } else if versionText == "2.0" || versionText == "2.00" {
      let digits = Array(data.textContent.utf8).filter { !ASCII.isWhitespace($0) }
      guard let decoded = Hex.decode(utf8: digits), !decoded.isEmpty else {
        throw .invalidKeyFile(reason: "Key/Data is not valid hex")
      }
      if let hashText = data.attribute(KeyFileXMLNames.hash) {
        guard let expected = Hex.decode(hashText.trimmingASCIIWhitespace()), expected.count == 4 else {
          throw .invalidKeyFile(reason: "Hash attribute is not 4 bytes of hex")
        }
        guard ConstantTime.equals(Array(SHA256.hash(decoded).bytes[0..<4]), expected) else {
          throw .invalidKeyFile(reason: "Hash attribute does not match Key/Data")
        }
      }
      format = .xmlVersion2
      keyBytes = decoded
      keePass1KeyBytes = decoded
    } else {
      throw .invalidKeyFile(reason: "unsupported key file version \(versionText)")
    }
  }

  /// Creates a new random KeePass 2.0 XML key file's key (32 bytes) from `generator`; write it with
  /// ``xmlVersion2Document()``.
  public static func generate(using generator: inout some RandomNumberGenerator) -> KeyFile {
    var bytes = [UInt8]()
    for _ in 0..<4 {
      let word = generator.next()
      for shift in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: word >> (shift * 8))) }
    }
    return KeyFile(format: .xmlVersion2, keyBytes: bytes)
  }

  init(format: Format, keyBytes: [UInt8]) {
    self.format = format
    self.keyBytes = keyBytes
    self.keePass1KeyBytes = keyBytes
  }

  /// The XML 2.0 document for this key, as KeePass writes it (hex in groups of 8 digits, 4 groups per line).
  public func xmlVersion2Document() -> XMLElement {
    let hex = Array(Hex.encode(keyBytes, uppercase: true).utf8)
    var text: [UInt8] = []
    for (index, digit) in hex.enumerated() {
      if index % 32 == 0 {
        text.append(contentsOf: Array("\n\t\t\t".utf8))
      } else if index % 8 == 0 {
        text.append(0x20)
      }
      text.append(digit)
    }
    text.append(contentsOf: Array("\n\t\t".utf8))
    let hash = Hex.encode(Array(SHA256.hash(keyBytes).bytes[0..<4]), uppercase: true)
    return XMLElement(
      name: KeyFileXMLNames.keyFile,
      children: [
        .element(
          XMLElement(
            name: KeyFileXMLNames.meta,
            children: [.element(XMLElement(name: KeyFileXMLNames.version, children: [.text("2.0")]))])),
        .element(
          XMLElement(
            name: KeyFileXMLNames.key,
            children: [
              .element(
                XMLElement(
                  name: KeyFileXMLNames.data, attributes: [XMLAttribute(name: KeyFileXMLNames.hash, value: hash)],
                  children: [.text(String(decoding: text, as: UTF8.self))]))
            ])),
      ])
  }

  public var description: String { "KeyFile(<redacted>)" }
  public var debugDescription: String { description }

  /// Constant-time comparison of the key bytes.
  public static func == (lhs: KeyFile, rhs: KeyFile) -> Bool {
    lhs.format == rhs.format && ConstantTime.equals(lhs.keyBytes, rhs.keyBytes)
  }
}

/// Element and attribute names of KeePass XML key files.
enum KeyFileXMLNames {
  static let keyFile = "KeyFile"
  static let meta = "Meta"
  static let version = "Version"
  static let key = "Key"
  static let data = "Data"
  static let hash = "Hash"
}

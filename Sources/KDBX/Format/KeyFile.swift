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
public struct KeyFile: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
  /// Which form the key file had.
  public enum Format: Sendable, Equatable {
    case xmlVersion1
    case xmlVersion2
    case binary32
    case hex64
    case hashed
  }

  /// The form the file was read in.
  public let format: Format
  /// The key bytes this file contributes to the composite key (32 bytes except for unusual XML v1.0 files).
  public let keyBytes: [UInt8]
  /// The key bytes a KeePass 1.x (`.kdb`) file takes from this key file: ``keyBytes``, except for XML key files,
  /// which KeePass 1.x does not know and hashes as any other file (SHA-256 of the contents; KeePass 1.x and
  /// KeePassXC's `KeePass1Reader::readKeyfile`). For a key file made from a parsed document
  /// (``init(xmlDocument:)``) the contents are unknown, and this is ``keyBytes``.
  public private(set) var keePass1KeyBytes: [UInt8]

  /// Reads a key file's contents.
  public init(contents: [UInt8]) throws(KDBXError) {
    try self.init(contents: contents, parsedXML: try KeyFile.xmlDocument(from: contents))
  }

  /// Reads a key file whose contents were already parsed as XML by the caller (`parsedXML` is the root element, or
  /// `nil` when the file is not well-formed XML). A document whose root is `KeyFile` is an XML key file; anything
  /// else falls through to the binary, hex and hashed forms.
  public init(contents: [UInt8], parsedXML: XMLElement?) throws(KDBXError) {
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

  /// Reads an XML key file from its parsed document (root element `KeyFile`).
  public init(xmlDocument root: XMLElement) throws(KDBXError) {
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

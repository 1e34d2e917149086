import Foundation
import KDBX
import KDBXXML
import Testing
import VectorSupport

/// The standard primitives, recording every payload they decrypt and (opened with ``xml``) every database XML
/// document as a tree, so that a test can compare the decrypted XML of two files as trees.
struct RecordingPrimitives: ForwardingPrimitives {
  final class Log: @unchecked Sendable {
    var documents: [XMLElement] = []
    var plaintexts: [[UInt8]] = []
  }
  var base = StandardPrimitives()
  let log = Log()

  func decrypt(_ ciphertext: [UInt8], cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]) throws(KDBXError)
    -> [UInt8]
  {
    let plaintext = try base.decrypt(ciphertext, cipher: cipher, key: key, iv: iv)
    log.plaintexts.append(plaintext)
    return plaintext
  }

  /// The database XML reader of an open that records the document as a tree, then reads the model as
  /// `KDBXFile.open` does: straight from the pull reader (so the round-trip tests check that path).
  var xml: DatabaseXMLOverride<StandardPrimitives.InnerStream> {
    let log = log
    let base = base
    return DatabaseXMLOverride(read: { xml, binaries, stream, options throws(KDBXError) in
      var readerOptions = XMLReader.Options()
      readerOptions.limits.maximumDepth = options.maxXMLDepth
      do throws(XMLError) {
        log.documents.append(try XMLElement.parse(xml, options: readerOptions))
      } catch {
        throw .xml(error)
      }
      var random = SplitMix64(seed: 1)
      return try DatabaseXML.read(
        xml: xml, binaries: binaries, stream: &stream, random: &random, gzip: base, options: options)
    })
  }

  /// Opens `bytes` and returns the database XML with every protected value replaced by the base64 of its
  /// plaintext (the form a document has under the `none` inner stream), plus the opened database.
  static func openDocument(_ bytes: [UInt8], key: CompositeKey) throws -> (XMLElement, OpenedDatabase) {
    let primitives = RecordingPrimitives()
    var random = SplitMix64(seed: 1)
    let opened = try KDBXFile.open(bytes: bytes, key: key, primitives: primitives, random: &random, xml: primitives.xml)
    var document = try #require(primitives.log.documents.last)
    let algorithm = opened.innerHeader?.innerRandomStream ?? opened.header.innerRandomStream ?? .none
    let streamKey = opened.innerHeader?.innerRandomStreamKey ?? opened.header.protectedStreamKey ?? []
    var stream: StandardPrimitives.InnerStream
    switch algorithm {
    case .chaCha20:
      let hash = primitives.sha512(streamKey)
      stream = try primitives.makeInnerStream(.chaCha20, key: Array(hash[0..<32]), nonce: Array(hash[32..<44]))
    case .salsa20:
      stream = try primitives.makeInnerStream(
        .salsa20, key: SHA256Helper.hash(streamKey), nonce: kdbxSalsa20InnerStreamNonce)
    default:
      stream = try primitives.makeInnerStream(.none, key: [], nonce: [])
    }
    try unprotect(&document, stream: &stream)
    return (document, opened)
  }

  static func unprotect(_ element: inout XMLElement, stream: inout StandardPrimitives.InnerStream) throws {
    if element.attribute(named: "Protected") == "True" {
      var bytes = [UInt8](try #require(Data(base64Encoded: element.text)))
      stream.apply(to: &bytes)
      element.children = bytes.isEmpty ? [] : [.text(Data(bytes).base64EncodedString())]
    }
    for index in element.children.indices {
      guard case .element(var child) = element.children[index] else { continue }
      try unprotect(&child, stream: &stream)
      element.children[index] = .element(child)
    }
  }
}

/// A canonical form of an XML tree for semantic comparison: element names, attributes (sorted by name), the
/// children in order, and text; whitespace-only text between elements and comments are dropped.
indirect enum CanonicalXML: Equatable, CustomStringConvertible {
  case element(String, [String], [CanonicalXML])
  case text(String)

  init(_ element: XMLElement) {
    var children: [CanonicalXML] = []
    let hasElements = !element.childElements.isEmpty
    var text = ""
    for child in element.children {
      switch child {
      case .element(let inner):
        if !text.isEmpty { children.append(.text(text)) }
        text = ""
        children.append(CanonicalXML(inner))
      case .text(let value), .cdata(let value):
        text += value
      case .comment, .processingInstruction: break
      }
    }
    if !text.isEmpty, !(hasElements && text.allSatisfy(\.isWhitespace)) { children.append(.text(text)) }
    children = children.filter { node in
      if case .text(let value) = node, hasElements { return !value.allSatisfy(\.isWhitespace) }
      return true
    }
    self = .element(element.name, element.attributes.map { "\($0.name)=\($0.value)" }.sorted(), children)
  }

  /// Paths where two trees differ (at most `limit`).
  func differences(from other: CanonicalXML, path: String = "", limit: Int = 20) -> [String] {
    switch (self, other) {
    case (.text(let a), .text(let b)): return a == b ? [] : ["\(path): text \"\(a)\" vs \"\(b)\""]
    case (.element(let n1, let a1, let c1), .element(let n2, let a2, let c2)):
      let here = path + "/" + n1
      if n1 != n2 { return ["\(path): element \(n1) vs \(n2)"] }
      var found: [String] = []
      if a1 != a2 { found.append("\(here): attributes \(a1) vs \(a2)") }
      if c1.count != c2.count { found.append("\(here): \(c1.count) vs \(c2.count) children: \(c1) vs \(c2)") }
      for (x, y) in zip(c1, c2) where found.count < limit {
        found += x.differences(from: y, path: here, limit: limit)
      }
      return found
    default: return ["\(path): \(self) vs \(other)"]
    }
  }

  var description: String {
    switch self {
    case .text(let value): return "\"\(value.prefix(40))\""
    case .element(let name, _, _): return "<\(name)>"
    }
  }
}

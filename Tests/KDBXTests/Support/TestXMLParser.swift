import Foundation
import KDBX
import KDBXXML

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A test-only oracle XML parser (Foundation's libxml2-based `XMLParser`) that builds the `KDBXXML` tree, so the
/// model mapping can be checked on the corpus's plain KeePass XML files independently of our own XML reader.
/// Attribute order is not kept (Foundation gives a dictionary); attributes are sorted by name.
final class TestXMLParser: NSObject, XMLParserDelegate {
  private var stack: [KDBXXML.XMLElement] = []
  private var root: KDBXXML.XMLElement?

  static func parse(_ bytes: [UInt8]) -> KDBXXML.XMLElement? {
    let delegate = TestXMLParser()
    let parser = XMLParser(data: Data(bytes))
    parser.delegate = delegate
    guard parser.parse() else { return nil }
    return delegate.root
  }

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
    attributes: [String: String] = [:]
  ) {
    let sorted = attributes.sorted { $0.key < $1.key }.map { KDBXXML.XMLAttribute(name: $0.key, value: $0.value) }
    stack.append(KDBXXML.XMLElement(name: elementName, attributes: sorted))
  }

  func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
    guard let element = stack.popLast() else { return }
    if stack.isEmpty {
      root = element
    } else {
      stack[stack.count - 1].children.append(.element(element))
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    guard !stack.isEmpty else { return }
    if case .text(let previous)? = stack[stack.count - 1].children.last {
      stack[stack.count - 1].children[stack[stack.count - 1].children.count - 1] = .text(previous + string)
    } else {
      stack[stack.count - 1].children.append(.text(string))
    }
  }

  func parser(_ parser: XMLParser, foundCDATA block: Data) {
    guard !stack.isEmpty else { return }
    stack[stack.count - 1].children.append(.cdata(String(decoding: block, as: UTF8.self)))
  }

  func parser(_ parser: XMLParser, foundComment comment: String) {
    guard !stack.isEmpty else { return }
    stack[stack.count - 1].children.append(.comment(comment))
  }
}

/// gzip through the `gzip` command (test-only), for `Compressed="True"` binaries of plain KeePass XML.
struct ProcessGzip: GzipDecompressing {
  static let path: String? = ["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }

  func decompressGzip(_ bytes: [UInt8], maxOutputByteCount: Int) throws(KDBXError) -> [UInt8] {
    guard let path = ProcessGzip.path else {
      throw .malformedValue(element: "Binary", reason: "gzip tool missing")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-dc"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    do { try process.run() } catch { throw .malformedValue(element: "Binary", reason: "gzip did not start") }
    input.fileHandleForWriting.write(Data(bytes))
    try? input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw .compression(.invalidHeader(offset: 0)) }
    return Array(data)
  }
}

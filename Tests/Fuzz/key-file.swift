// Fuzz target: key-file parsing. `KeyFile(contents:)` (binary, hex, hashed and XML detection) and the XML key-file
// path through the real tree parser: `KeyFile(contents:parsedXML:)` with `XMLElement.parse` of the same bytes.
import KDBX
import KDBXXML

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if let key = try? KeyFile(contents: bytes) { precondition(!key.keyBytes.isEmpty || key.format == .xmlVersion1) }
  var body = bytes[...]
  if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
  let tree = try? XMLElement.parse(Array(body))
  if let key = try? KeyFile(contents: bytes, parsedXML: tree), key.format == .xmlVersion2 {
    // A v2 key written back out must read back to the same key.
    let document = key.xmlVersion2Document()
    if let written = try? XMLWriter.write(document), let reparsed = try? XMLElement.parse(written) {
      guard let again = try? KeyFile(xmlDocument: reparsed), again == key else { fatalError("key file round trip") }
    }
  }
  return 0
}

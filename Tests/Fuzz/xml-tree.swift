// Fuzz target: the KDBXXML tree builder (`XMLElement.parse`) and, for every document it accepts, the writer:
// `XMLWriter.write` must accept the tree and parsing its output must give the same tree back.
import KDBXXML

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let options = XMLReader.Options(keepsWhitespaceText: true)
  guard let tree = try? XMLElement.parse(bytes, options: options) else { return 0 }
  let written: [UInt8]
  do {
    written = try XMLWriter.write(tree, options: XMLWriter.Options(indentation: .none))
  } catch {
    return 0  // a tree the writer refuses (for example a comment containing "--") is a documented refusal
  }
  guard let back = try? XMLElement.parse(written, options: options) else {
    fatalError("writer output does not parse: \(String(decoding: written, as: UTF8.self))")
  }
  if back != tree { fatalError("round trip changed the tree: \(String(decoding: written, as: UTF8.self))") }
  return 0
}

// Fuzz target: the KDBXXML pull reader (`XMLReader.next()`), event by event, with and without whitespace text and
// DOCTYPE permission, and with tight limits (the first input byte picks the options).
import KDBXXML

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let selector = data[0]
  let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  var options = XMLReader.Options(keepsWhitespaceText: selector & 1 != 0, allowsDoctype: selector & 2 != 0)
  if selector & 4 != 0 {
    options.limits = XMLReader.Limits(
      maximumDepth: 8, maximumAttributeCount: 4, maximumNameLength: 16, maximumTokenLength: 64)
  }
  var reader = XMLReader(bytes: bytes, options: options)
  var events = 0
  do {
    while let event = try reader.next() {
      events += 1
      if case .startElement = event { _ = reader.depth }
    }
  } catch {
    _ = reader.location(ofByteOffset: reader.byteOffset)
  }
  return events < 0 ? 1 : 0
}

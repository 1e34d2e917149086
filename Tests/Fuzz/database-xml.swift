// Fuzz target: `DatabaseXMLReader` on arbitrary XML, through the pull reader and through the tree parser (plaintext
// inner stream, no gzip), which must agree; then `DatabaseXMLWriter` on every database they accept.
import KDBX
import KDBXXML

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let binaries = [InnerHeader.Binary(isProtected: false, data: [1, 2, 3])]
  // The open path: the model straight from the pull reader. It must agree with the tree path below.
  var pullStream = PlaintextInnerStream()
  var pullRandom = SplitMix64(seed: 1)
  let pulled = try? DatabaseXMLReader.read(
    xml: bytes, binaries: binaries, stream: &pullStream, random: &pullRandom, gzip: NoGzipDecompressor())
  guard let document = try? XMLElement.parse(bytes) else {
    if pulled != nil { fatalError("the pull reader read a document the tree parser refuses") }
    return 0
  }
  var stream = PlaintextInnerStream()
  var random = SplitMix64(seed: 1)
  guard
    let database = try? DatabaseXMLReader.read(
      document: document, binaries: binaries, stream: &stream, random: &random, gzip: NoGzipDecompressor())
  else {
    if pulled != nil { fatalError("the pull reader read a document the tree path refuses") }
    return 0
  }
  guard pulled == database else { fatalError("the pull reader and the tree path read different models") }
  // What was read must be written, and the written document must read again (a save must not lose the vault).
  // As `KDBXFile.save` does for KDBX 4: compact the binary pool, which goes to the inner header.
  let saved = database.compactingBinaries()
  let savedBinaries = saved.binaries.binaries.map { InnerHeader.Binary(isProtected: $0.isProtected, data: $0.data) }
  var out = PlaintextInnerStream()
  let tree = DatabaseXMLWriter.write(saved, version: .v4_1, stream: &out)
  guard let written = try? XMLWriter.write(tree) else { fatalError("writer refused a tree built from a read database") }
  guard let reparsed = try? XMLElement.parse(written) else { fatalError("written database XML does not parse") }
  var stream2 = PlaintextInnerStream()
  do {
    _ = try DatabaseXMLReader.read(
      document: reparsed, binaries: savedBinaries, stream: &stream2, random: &random, gzip: NoGzipDecompressor())
  } catch {
    fatalError("written database does not read back: \(error)")
  }
  return 0
}

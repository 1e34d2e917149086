import KDBXCrypto
import KDBXXML

/// The check every save runs on the document it writes: the open's own model reader, with the open's limits and
/// counting rules (``LoadOptions``: depth, nodes, group nesting, what the model may hold), so that no save writes
/// a file that the open refuses.
extension DatabaseXMLReader
where Stream == PlaintextInnerStream, Random == ChaCha20RandomNumberGenerator, Gzip == StandardPrimitives {
  /// Reads `xml` as ``read(xml:binaries:stream:random:gzip:options:pipeline:)`` does when a file is opened, on the
  /// calling thread, but drops each entry once it is read and charged, so that it needs the memory of one entry,
  /// not of the model. Protected values are read without the inner random stream: the check needs their sizes,
  /// which the stream does not change, not their contents.
  /// - Throws: what the open would throw for this document.
  package static func checkOpens(xml: [UInt8], binaries: [InnerHeader.Binary], options: LoadOptions)
    throws(KDBXError)
  {
    var readerOptions = XMLReader.Options()
    readerOptions.limits.maximumDepth = options.maxXMLDepth
    var stream = PlaintextInnerStream()
    // The pads of the values the check makes and drops: they protect nothing, so a fixed key is enough.
    var random: ChaCha20RandomNumberGenerator
    do throws(CryptoError) {
      random = try ChaCha20RandomNumberGenerator(seed: [UInt8](repeating: 0, count: 32))
    } catch {
      throw .crypto(error)
    }
    let limit = heldByteLimit(xmlByteCount: xml.count)
    var xmlReader = XMLReader(bytes: xml, options: readerOptions)
    // SAFETY: the model reader's copy of `source` lives only inside the scope of the borrowed input.
    _ = try xmlReader.withBorrowedInput { (source) throws(KDBXError) in
      try withCallbacks(stream: &stream, random: &random, gzip: StandardPrimitives()) {
        (applyStream, protect, decompress) throws(KDBXError) in
        var reader = DatabaseModelReader<XMLReader>(
          source: source, options: options, heldByteLimit: limit, applyStream: applyStream, protect: protect,
          decompress: decompress)
        reader.keepsEntries = false
        return try reader.readDocument(binaries: binaries)
      }
    }
  }
}

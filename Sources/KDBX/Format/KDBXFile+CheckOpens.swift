import KDBXXML

/// The check every save runs on the document it writes: the open's own model reader, with the open's limits and
/// counting rules (``LoadOptions``: depth, nodes, group nesting, what the model may hold), so that no save writes
/// a file that the open refuses.
extension KDBXFile {
  /// Reads `xml` as the open does (`readDatabaseModel`, with `pipeline`: the open's
  /// ``XMLEventPipelineSettings/standard`` reads a large document's events on a helper a few batches ahead), but
  /// drops each entry once it is read and charged, so that it needs the memory of one entry, not of the model.
  /// Protected values are read without the inner random stream: the check needs their sizes, which the stream does
  /// not change, not their contents. A save runs it when the serialisation is done, while only the rest of the
  /// compression keeps the other core busy.
  /// - Throws: what the open would throw for this document.
  package static func checkOpens(
    xml: [UInt8], binaries: [InnerHeader.Binary], options: LoadOptions,
    pipeline: XMLEventPipelineSettings = .standard
  ) throws(KDBXError) {
    // Values are read, charged and dropped: one empty protected value stands for every protected value (the
    // charge is made on the bytes before it is made), so no pad is drawn for each.
    var pads = SystemRandomNumberGenerator()
    let placeholder = ProtectedValue(bytes: [], using: &pads)
    let limit = DatabaseXMLReader<PlaintextInnerStream, SystemRandomNumberGenerator, StandardPrimitives>.heldByteLimit(
      xmlByteCount: xml.count)
    let gzip = StandardPrimitives()
    _ = try readDatabaseModel(
      xml: xml, binaries: binaries, options: options, heldByteLimit: limit, keepsTree: false, pipeline: pipeline,
      applyStream: { _ in }, protect: { _ in placeholder },
      decompress: { (bytes, limit) throws(KDBXError) in try gzip.decompressGzip(bytes, maxOutputByteCount: limit) })
  }
}

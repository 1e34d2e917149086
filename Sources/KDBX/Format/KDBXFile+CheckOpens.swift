import KDBXXML

/// The check every save runs on the document it writes: the open's own model reader, with the open's limits and
/// counting rules (``LoadOptions``: depth, nodes, group nesting, what the model may hold), so that no save writes
/// a file that the open refuses.
extension KDBXFile {
  /// Reads `xml` as `DatabaseXMLReader.read(xml:...)` does when a file is opened, on the
  /// calling thread, but drops each entry once it is read and charged, so that it needs the memory of one entry,
  /// not of the model. Protected values are read without the inner random stream: the check needs their sizes,
  /// which the stream does not change, not their contents.
  /// - Throws: what the open would throw for this document.
  ///
  /// With `pipeline` (the open's ``XMLEventPipelineSettings/standard``), a large document's events are read by a
  /// helper a few batches ahead, as the open reads them: a save runs this check when the serialisation is done and
  /// only the rest of the compression keeps the other core busy.
  package static func checkOpens(
    xml: [UInt8], binaries: [InnerHeader.Binary], options: LoadOptions,
    pipeline: XMLEventPipelineSettings = .standard
  ) throws(KDBXError) {
    var readerOptions = XMLReader.Options()
    readerOptions.limits.maximumDepth = options.maxXMLDepth
    // Values are read, charged and dropped: one empty protected value stands for every protected value (the
    // charge is made on the bytes before it is made), so no pad is drawn for each.
    var pads = SystemRandomNumberGenerator()
    let placeholder = ProtectedValue(bytes: [], using: &pads)
    let limit = DatabaseXMLReader<PlaintextInnerStream, SystemRandomNumberGenerator, StandardPrimitives>.heldByteLimit(
      xmlByteCount: xml.count)
    let gzip = StandardPrimitives()
    let decompress = { (bytes: [UInt8], limit: Int) throws(KDBXError) -> [UInt8] in
      try gzip.decompressGzip(bytes, maxOutputByteCount: limit)
    }
    #if !$Embedded
      if pipeline.isUsed(byteCount: xml.count), #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        let events = XMLEventPipeline(
          XMLReader(bytes: xml, options: readerOptions), batchSize: pipeline.batchSize,
          ringLength: pipeline.ringLength)
        if pipeline.startsHelper { events.startHelper() }
        defer { events.finish() }
        var reader = DatabaseModelReader<PipelinedXMLEventSource>(
          source: PipelinedXMLEventSource(events), options: options, heldByteLimit: limit, applyStream: { _ in },
          protect: { _ in placeholder }, decompress: decompress)
        reader.keepsEntries = false
        _ = try reader.readDocument(binaries: binaries)
        return
      }
    #endif
    var xmlReader = XMLReader(bytes: xml, options: readerOptions)
    // SAFETY: the model reader's copy of `source` lives only inside the scope of the borrowed input.
    try xmlReader.withBorrowedInput { (source) throws(KDBXError) in
      var reader = DatabaseModelReader<XMLReader>(
        source: source, options: options, heldByteLimit: limit, applyStream: { _ in }, protect: { _ in placeholder },
        decompress: decompress)
      reader.keepsEntries = false
      _ = try reader.readDocument(binaries: binaries)
    }
  }
}

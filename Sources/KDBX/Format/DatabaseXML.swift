import KDBXXML

/// The database XML mapping of ``KDBXFile``'s open and save (KDBX 4.1 specification, "XML"): the document is read
/// into the model straight from the pull reader's events and written straight from the model, without building the
/// tree (``DatabaseXMLReader/read(xml:binaries:stream:random:gzip:options:pipeline:)`` and
/// ``DatabaseXMLWriter/serialize(_:version:stream:options:)``).
package enum DatabaseXML {
  /// Reads the database XML document `xml` into the model, unprotecting protected values with `stream` in document
  /// order and decompressing compressed KDBX 3.x binaries with `gzip`.
  package static func read<S: InnerRandomStream, R: RandomNumberGenerator, G: GzipDecompressing>(
    xml: [UInt8], binaries: [InnerHeader.Binary], stream: inout S, random: inout R, gzip: G, options: LoadOptions
  ) throws(KDBXError) -> Database {
    try DatabaseXMLReader.read(
      xml: xml, binaries: binaries, stream: &stream, random: &random, gzip: gzip, options: options)
  }

  /// Serialises `database` as its database XML (UTF-8, with the XML declaration), protecting protected values with
  /// `stream` in document order: the bytes of `XMLWriter.write(DatabaseXMLWriter.write(database, version: version,
  /// stream: &stream), options: writerOptions)`.
  package static func serialize<S: InnerRandomStream>(_ database: Database, version: KDBXVersion, stream: inout S)
    throws(KDBXError) -> [UInt8]
  {
    do throws(XMLError) {
      return try DatabaseXMLWriter.serialize(database, version: version, stream: &stream, options: writerOptions)
    } catch {
      throw .xml(error)
    }
  }

  /// KeePass drops characters XML 1.0 cannot carry rather than refusing to save.
  package static let writerOptions = XMLWriter.Options(invalidCharacters: .strip)
}

/// A replacement for the database XML mapping in one open or save (``KDBXFile/open(bytes:key:primitives:random:options:xml:)``,
/// ``KDBXFile/write(_:key:settings:primitives:random:checksDocument:limits:checksLimits:xml:)``), for tests: a
/// document reader that records what it reads or reads it two ways, a writer that damages the document or writes a
/// chosen one. Without one (``standard``) the open and the save use ``DatabaseXML``; a save with a writer compresses
/// the finished document with the primitives' `compressGzip`, and checks it as it checks its own.
package struct DatabaseXMLOverride<Stream: InnerRandomStream> {
  /// Reads the document into the model in place of ``DatabaseXML/read(xml:binaries:stream:random:gzip:options:)``.
  package typealias Read = (
    _ xml: [UInt8], _ binaries: [InnerHeader.Binary], _ stream: inout Stream, _ options: LoadOptions
  ) throws(KDBXError) -> Database
  /// Serialises the model in place of ``DatabaseXML/serialize(_:version:stream:)``.
  package typealias Serialize = (_ database: Database, _ version: KDBXVersion, _ stream: inout Stream) throws(KDBXError)
    -> [UInt8]

  package var read: Read?
  package var serialize: Serialize?

  package init(read: Read? = nil, serialize: Serialize? = nil) {
    self.read = read
    self.serialize = serialize
  }

  /// No replacement: ``DatabaseXML`` reads and writes.
  package static var standard: Self { Self() }
}

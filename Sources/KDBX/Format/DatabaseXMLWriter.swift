import KDBXBase
import KDBXXML

/// Maps the model back to the KeePass database XML, protecting protected values with the inner random stream in
/// document order (KDBX 4.1 specification, "XML" and "Inner Random Stream").
///
/// Known fields are written in the order they were read, unknown nodes go back to their positions (``XMLLayout``),
/// and fields that were absent stay absent. Times use the version's form (base64 for 4.x, ISO 8601 for 3.x). For
/// KDBX 3.x the binary pool is written as `Meta/Binaries` (uncompressed); for 4.x it belongs in the inner header.
///
/// One walk over the model feeds a sink: ``write(_:version:stream:)`` builds the tree,
/// ``serialize(_:version:stream:options:)`` streams the bytes that ``XMLWriter`` would write for that tree.
package enum DatabaseXMLWriter<Stream: InnerRandomStream> {
  /// Builds the `KeePassFile` element for `database`.
  package static func write(_ database: Database, version: KDBXVersion, stream: inout Stream) -> XMLElement {
    var sink = XMLTreeSink()
    DatabaseXMLWalk.walk(database, version: version, applyStream: { stream.apply(to: &$0) }, into: &sink)
    return sink.root
  }

  /// The bytes `XMLWriter.write(write(database, version: version, stream: &stream), options: options)` gives,
  /// written straight from the model without building the tree.
  ///
  /// - Throws: ``XMLError`` when the content cannot be written as well-formed XML 1.0 with `options` (the inner
  ///   random stream has then still moved past every protected value).
  package static func serialize(
    _ database: Database, version: KDBXVersion, stream: inout Stream, options: XMLWriter.Options
  ) throws(XMLError) -> [UInt8] {
    var sink = XMLByteSink(writer: writer(for: database, options: options))
    sink.writer.writeDeclaration()
    DatabaseXMLWalk.walk(database, version: version, applyStream: { stream.apply(to: &$0) }, into: &sink)
    if let failure = sink.failure { throw failure }
    return sink.writer.takeOutput()
  }

  /// ``serialize(_:version:stream:options:)``, handing the output on while it is written: each time it has grown
  /// by at least `chunkByteCount` bytes since the last hand-off (at the end of an element), `onChunk` receives the
  /// new bytes, preceded by up to 32 KiB of the bytes before them (a DEFLATE window, RFC 1951 §2), and the offset
  /// in that array where the new bytes start. With `earlyHandOff`, the output is also handed on sooner, once it has
  /// grown by at least `minimum` bytes, at the end of an element where `wanted()` returns `true` (the consumer is
  /// idle). Returns the whole document and how much of it was handed on (the hand-offs cover `0..<handedOff` in
  /// order).
  package static func serialize(
    _ database: Database, version: KDBXVersion, stream: inout Stream, options: XMLWriter.Options,
    chunkByteCount: Int, earlyHandOff: (minimum: Int, wanted: () -> Bool)? = nil,
    onChunk: @escaping (_ bytes: [UInt8], _ newBytesStart: Int) -> Void
  ) throws(XMLError) -> (document: [UInt8], handedOff: Int) {
    var sink = XMLByteSink(writer: writer(for: database, options: options))
    sink.chunks = XMLByteSink.Chunks(
      size: max(chunkByteCount, 1), early: earlyHandOff.map { (max($0.minimum, 1), $0.wanted) }, handler: onChunk)
    sink.writer.writeDeclaration()
    DatabaseXMLWalk.walk(database, version: version, applyStream: { stream.apply(to: &$0) }, into: &sink)
    if let failure = sink.failure { throw failure }
    return (sink.writer.takeOutput(), sink.chunks?.handedOff ?? 0)
  }

  /// A writer with room for about the document `database` was read from, and a sixteenth more, so that the
  /// output does not grow by copying (the document in memory twice for a moment) when it is saved again; for a
  /// database that was not read from a document (built or imported), room for a quarter more than
  /// ``estimatedByteCount(_:)``. Room reserved and not written costs address space, not memory: its pages are
  /// never touched.
  private static func writer(for database: Database, options: XMLWriter.Options) -> XMLStreamWriter {
    var writer = XMLStreamWriter(options: options)
    let known = database.documentSize.byteCount
    if known > 0 {
      writer.reserveCapacity(known + known / 16 + (64 << 10))
    } else {
      let estimate = estimatedByteCount(database)
      writer.reserveCapacity(estimate + estimate / 4 + (64 << 10))
    }
    return writer
  }

  /// About the size of `database`'s document, from its content: per group and entry (history versions
  /// included) the elements every one has, per field its name and value (base64 when protected), and the
  /// indentation of their lines at their depth. Within a fifth of the document for generated vaults of 500 and
  /// 3,000 entries, flat or 30 groups deep (`DocumentSizeHintTests`); a hint, not a bound.
  package static func estimatedByteCount(_ database: Database) -> Int {
    func entryBytes(_ entry: Entry, depth: Int) -> Int {
      var bytes = 684 &+ (entry.tagsText?.utf8.count ?? 0) &+ 120 &* entry.attachments.count
      for field in entry.fields {
        let value: Int
        switch field.value {
        case .plain(let text): value = text.utf8.count
        case .protected(let protected): value = (protected.byteCount &+ 2) / 3 &* 4
        }
        bytes &+= 47 &+ field.key.utf8.count &+ value
      }
      // About 18 lines of its own and 4 per field, each indented one tab per level.
      return bytes &+ (18 &+ 4 &* entry.fields.count) &* (depth &+ 1)
    }
    var total = 1_700
    for icon in database.meta.customIcons ?? [] { total &+= 160 &+ (icon.data.count &+ 2) / 3 &* 4 }
    // An explicit stack: the group tree may be of any depth.
    var pending = database.root.map { [($0, 1)] } ?? []
    while let (group, depth) = pending.popLast() {
      total &+= 500 &+ 20 &* depth &+ (group.notesText?.utf8.count ?? 0)
      for entry in group.entries {
        total &+= entryBytes(entry, depth: depth)
        for version in entry.history ?? [] { total &+= entryBytes(version, depth: depth &+ 2) }
      }
      for child in group.groups { pending.append((child, depth &+ 1)) }
    }
    return total
  }
}

/// The walk over the model behind ``DatabaseXMLWriter``. It is not generic over the inner random stream (which it
/// only reaches through `applyStream`), so that it is specialized for its two sinks even where the stream type is
/// only known at run time (`KDBXFile.save` over generic primitives).
struct DatabaseXMLWalk {
  let version: KDBXVersion
  /// XORs bytes with the next bytes of the inner random stream.
  let applyStream: (inout [UInt8]) -> Void
  /// The number of binaries in the pool written (for references that name none).
  let binaryCount: Int
  /// The standard fields `Meta/memoryProtection` protects: their values are written `Protected="True"` even when
  /// the model holds them plain.
  let protectedFieldKeys: [String]

  /// Feeds `database` to `sink`; `applyStream` is called for every protected value, in document order. Generic
  /// over the sink only, so that each call with a concrete sink is specialized.
  static func walk<Sink: DatabaseXMLSink>(
    _ database: Database, version: KDBXVersion, applyStream: (inout [UInt8]) -> Void, into sink: inout Sink
  ) {
    withoutActuallyEscaping(applyStream) { applyStream in
      DatabaseXMLWalk(
        version: version, applyStream: applyStream, binaryCount: database.binaries.count,
        protectedFieldKeys: database.meta.protectedFieldKeys
      )
      .document(database, into: &sink)
    }
  }

  func document<Sink: DatabaseXMLSink>(_ database: Database, into sink: inout Sink) {
    container(XMLNames.keePassFile, database.documentLayout, .document, parent: Self.noParent, into: &sink) {
      name, sink in
      switch name {
      case XMLNames.meta: self.meta(database.meta, binaries: database.binaries, into: &sink)
      case XMLNames.root: self.root(database, into: &sink)
      default: break
      }
    }
  }

  func root<Sink: DatabaseXMLSink>(_ database: Database, into sink: inout Sink) {
    container(XMLNames.root, database.rootLayout, .root, parent: Self.noParent, into: &sink) { name, sink in
      switch name {
      case XMLNames.group:
        if let group = database.root { self.group(group, parent: Self.noParent, into: &sink) }
      case XMLNames.deletedObjects:
        guard let objects = database.deletedObjects else { break }
        self.list(XMLNames.deletedObjects, database.deletedObjectsLayout, parent: Self.noParent, into: &sink) { sink in
          for object in objects {
            self.container(XMLNames.deletedObject, object.layout, .deletedObject, parent: Self.noParent, into: &sink) {
              name, sink in
              switch name {
              case XMLNames.uuid: self.leaf(name, object.uuid.base64, parent: object.layout, into: &sink)
              default:
                guard let time = object.deletionTime else { return }
                self.leaf(name, self.time(time), parent: object.layout, into: &sink)
              }
            }
          }
        }
      default: break
      }
    }
  }

  // MARK: - Helpers

  /// The element `name` with the attributes of `layout`, its children in `layout`'s write order: `known` writes the
  /// elements of a known name (none when absent), unknown nodes are written as kept. `parent` is the layout of the
  /// enclosing element, whose kept child attributes go on this element when it has none of its own.
  func container<Sink: DatabaseXMLSink>(
    _ name: String, _ layout: XMLLayout, _ canonical: XMLLayoutOrder, parent: XMLLayout, into sink: inout Sink,
    _ known: (String, inout Sink) -> Void
  ) {
    sink.startElement(
      name, attributes: restored(layout.attributes, name, parent), containsText: layout.holdsText)
    layout.forEachInWriteOrder(canonical) { slot in
      switch slot {
      case .kept(let range): sink.kept(layout.kept, range)
      case .known(let child): known(child, &sink)
      }
    }
    sink.endElement()
  }

  /// A container element whose known children all share one name (for example `CustomIcons/Icon`): `items` writes
  /// them at the position of the first one read, unknown children stay at theirs.
  func list<Sink: DatabaseXMLSink>(
    _ name: String, _ layout: XMLLayout, parent: XMLLayout, into sink: inout Sink,
    _ items: (inout Sink) -> Void
  ) {
    sink.startElement(name, attributes: restored(layout.attributes, name, parent), containsText: layout.holdsText)
    var wroteItems = false
    KeptXML.forEachItem(in: layout.kept) { item in
      switch item {
      case .node(let range): sink.kept(layout.kept, range)
      case .known:
        if !wroteItems {
          wroteItems = true
          items(&sink)
        }
      }
    }
    if !wroteItems { items(&sink) }
    sink.endElement()
  }

  /// `attributes`, or when there are none, the attributes `parent` kept for its child `name`.
  func restored(_ attributes: [XMLAttribute], _ name: String, _ parent: XMLLayout) -> [XMLAttribute] {
    guard attributes.isEmpty, let kept = parent.attributes(ofChild: name) else { return attributes }
    return kept
  }

  /// The parent layout of elements whose attributes are never restored (list items, top-level elements).
  static let noParent = XMLLayout()

  /// An element holding `text` (none when empty).
  func leaf<Sink: DatabaseXMLSink>(
    _ name: String, _ text: String, attributes: [XMLAttribute] = [], parent: XMLLayout, into sink: inout Sink
  ) {
    sink.leaf(name, attributes: restored(attributes, name, parent), text: text)
  }

  func time(_ value: Timestamp) -> String { KDBXTime.encode(value, version: version) }

  func bool(_ value: Bool) -> String { value ? XMLNames.trueValue : XMLNames.falseValue }

  func nullableBool(_ value: Bool?) -> String { value.map(bool) ?? XMLNames.nullValue }

  func integer(_ value: Int64) -> String { String(value) }

  /// Base64 of `bytes` XORed with the next stream bytes.
  func protect(_ bytes: [UInt8]) -> String {
    var masked = bytes
    applyStream(&masked)
    return Base64.encode(masked)
  }

  func customData<Sink: DatabaseXMLSink>(_ data: CustomData, parent: XMLLayout, into sink: inout Sink) {
    list(XMLNames.customData, data.layout, parent: parent, into: &sink) { sink in
      for item in data.items {
        self.container(XMLNames.item, item.layout, .customDataItem, parent: Self.noParent, into: &sink) {
          name, sink in
          switch name {
          case XMLNames.key: self.leaf(name, item.key, parent: item.layout, into: &sink)
          case XMLNames.value: self.leaf(name, item.value, parent: item.layout, into: &sink)
          default:
            guard self.version >= .v4_1, let time = item.lastModificationTime else { return }
            self.leaf(name, self.time(time), parent: item.layout, into: &sink)
          }
        }
      }
    }
  }

  func times<Sink: DatabaseXMLSink>(_ times: Times, parent: XMLLayout, into sink: inout Sink) {
    let layout = times.layout
    container(XMLNames.times, layout, .times, parent: parent, into: &sink) { name, sink in
      let text: String?
      switch name {
      case XMLNames.creationTime: text = times.creationTime.map { self.time($0) }
      case XMLNames.lastModificationTime: text = times.lastModificationTime.map { self.time($0) }
      case XMLNames.lastAccessTime: text = times.lastAccessTime.map { self.time($0) }
      case XMLNames.expiryTime: text = times.expiryTime.map { self.time($0) }
      case XMLNames.expires: text = times.expires.map { self.bool($0) }
      case XMLNames.usageCount: text = times.usageCount.map { self.integer($0) }
      case XMLNames.locationChanged: text = times.locationChanged.map { self.time($0) }
      default: text = nil
      }
      if let text { self.leaf(name, text, parent: layout, into: &sink) }
    }
  }

}

import KDBXXML

/// Maps the model back to the KeePass database XML tree, protecting protected values with the inner random stream
/// in document order (KDBX 4.1 specification, "XML" and "Inner Random Stream").
///
/// Known fields are written in the order they were read, unknown nodes go back to their positions (``XMLLayout``),
/// and fields that were absent stay absent. Times use the version's form (base64 for 4.x, ISO 8601 for 3.x). For
/// KDBX 3.x the binary pool is written as `Meta/Binaries` (uncompressed); for 4.x it belongs in the inner header.
public struct DatabaseXMLWriter<Stream: InnerRandomStream> {
  var stream: Stream
  let version: KDBXVersion

  /// Builds the `KeePassFile` element for `database`.
  public static func write(_ database: Database, version: KDBXVersion, stream: inout Stream) -> XMLElement {
    var writer = DatabaseXMLWriter(stream: stream, version: version)
    let document = writer.document(database)
    stream = writer.stream
    return document
  }

  mutating func document(_ database: Database) -> XMLElement {
    var children: [XMLNode] = []
    for item in database.documentLayout.writeOrder(canonical: Database.documentOrder) {
      switch item {
      case .unknown(let node): children.append(node)
      case .known(XMLNames.meta): children.append(.element(meta(database.meta, binaries: database.binaries)))
      case .known(XMLNames.root):
        var root: [XMLNode] = []
        for rootItem in database.rootLayout.writeOrder(canonical: Database.rootOrder) {
          switch rootItem {
          case .unknown(let node): root.append(node)
          case .known(XMLNames.group): if let group = database.root { root.append(.element(self.group(group))) }
          case .known(XMLNames.deletedObjects):
            guard let objects = database.deletedObjects else { break }
            let items = objects.map { object in
              XMLElement(
                name: XMLNames.deletedObject, attributes: object.layout.attributes,
                children: ordered(object.layout, [XMLNames.uuid, XMLNames.deletionTime]) { name in
                  switch name {
                  case XMLNames.uuid: return [leaf(name, object.uuid.base64)]
                  default: return object.deletionTime.map { [leaf(name, time($0))] } ?? []
                  }
                })
            }
            root.append(.element(list(XMLNames.deletedObjects, items, layout: database.deletedObjectsLayout)))
          case .known: break
          }
        }
        children.append(
          .element(XMLElement(name: XMLNames.root, attributes: database.rootLayout.attributes, children: root)))
      case .known: break
      }
    }
    return XMLElement(name: XMLNames.keePassFile, attributes: database.documentLayout.attributes, children: children)
  }

  // MARK: - Helpers

  /// Children in `layout`'s write order; `produce` gives the elements of a known name (none when absent).
  func ordered(_ layout: XMLLayout, _ canonical: [String], _ produce: (String) -> [XMLElement]) -> [XMLNode] {
    var children: [XMLNode] = []
    for item in layout.writeOrder(canonical: canonical) {
      switch item {
      case .unknown(let node): children.append(node)
      case .known(let name):
        for element in produce(name) { children.append(.element(layout.restoringAttributes(element))) }
      }
    }
    return children
  }

  /// The mutating variant of ``ordered(_:_:_:)``, for content that uses the inner random stream.
  mutating func orderedMutating(
    _ layout: XMLLayout, _ canonical: [String], _ produce: (String, inout DatabaseXMLWriter) -> [XMLElement]
  ) -> [XMLNode] {
    var children: [XMLNode] = []
    for item in layout.writeOrder(canonical: canonical) {
      switch item {
      case .unknown(let node): children.append(node)
      case .known(let name):
        for element in produce(name, &self) { children.append(.element(layout.restoringAttributes(element))) }
      }
    }
    return children
  }

  /// A container element whose known children all share one name (for example `CustomIcons/Icon`): they are written
  /// at the position of the first one read, unknown children at theirs.
  func list(_ name: String, _ items: [XMLElement], layout: XMLLayout) -> XMLElement {
    var children: [XMLNode] = []
    var wroteItems = false
    for item in layout.items {
      switch item {
      case .unknown(let node): children.append(node)
      case .known:
        if !wroteItems {
          wroteItems = true
          children.append(contentsOf: items.map { .element($0) })
        }
      }
    }
    if !wroteItems { children.append(contentsOf: items.map { .element($0) }) }
    return XMLElement(name: name, attributes: layout.attributes, children: children)
  }

  func leaf(_ name: String, _ text: String, attributes: [XMLAttribute] = []) -> XMLElement {
    XMLElement(name: name, attributes: attributes, children: text.isEmpty ? [] : [.text(text)])
  }

  func time(_ value: Timestamp) -> String { KDBXTime.encode(value, version: version) }

  func bool(_ value: Bool) -> String { value ? XMLNames.trueValue : XMLNames.falseValue }

  func nullableBool(_ value: Bool?) -> String { value.map(bool) ?? XMLNames.nullValue }

  func integer(_ value: Int64) -> String { "\(value)" }

  /// Base64 of `bytes` XORed with the next stream bytes.
  mutating func protect(_ bytes: [UInt8]) -> String {
    var masked = bytes
    stream.apply(to: &masked)
    return Base64.encode(masked)
  }

  func customData(_ data: CustomData) -> XMLElement {
    let items = data.items.map { item in
      XMLElement(
        name: XMLNames.item, attributes: item.layout.attributes,
        children: ordered(item.layout, [XMLNames.key, XMLNames.value, XMLNames.lastModificationTime]) { name in
          switch name {
          case XMLNames.key: return [leaf(name, item.key)]
          case XMLNames.value: return [leaf(name, item.value)]
          default:
            guard version >= .v4_1, let time = item.lastModificationTime else { return [] }
            return [leaf(name, self.time(time))]
          }
        })
    }
    return list(XMLNames.customData, items, layout: data.layout)
  }

  func times(_ times: Times) -> XMLElement {
    XMLElement(
      name: XMLNames.times, attributes: times.layout.attributes,
      children: ordered(times.layout, Times.canonicalOrder) { name in
        switch name {
        case XMLNames.creationTime: return times.creationTime.map { [leaf(name, time($0))] } ?? []
        case XMLNames.lastModificationTime: return times.lastModificationTime.map { [leaf(name, time($0))] } ?? []
        case XMLNames.lastAccessTime: return times.lastAccessTime.map { [leaf(name, time($0))] } ?? []
        case XMLNames.expiryTime: return times.expiryTime.map { [leaf(name, time($0))] } ?? []
        case XMLNames.expires: return times.expires.map { [leaf(name, bool($0))] } ?? []
        case XMLNames.usageCount: return times.usageCount.map { [leaf(name, integer($0))] } ?? []
        case XMLNames.locationChanged: return times.locationChanged.map { [leaf(name, time($0))] } ?? []
        default: return []
        }
      })
  }
}

import KDBXBase
import KDBXCompression
import KDBXCrypto
import KDBXXML

/// What ``KDBXFile/verifyIntegrity(bytes:key:primitives:options:)`` checked.
package struct IntegrityReport: Sendable, Equatable {
  /// The file's format version.
  package var version: KDBXVersion
  /// The size of the XML document after decryption and decompression.
  package var xmlByteCount: Int
  /// The number of XML elements in the document.
  package var elementCount: Int
  /// KDBX 3.x: whether Meta held a `HeaderHash` (it was checked); KDBX 4 authenticates the header by HMAC.
  package var checkedHeaderHash: Bool
  /// Harmless irregularities accepted after the integrity checks, as `OpenedDatabase/warnings` lists them.
  package var warnings: [KDBXWarning] = []
}

extension KDBXFile {
  /// Checks that `bytes` are an intact KDBX file for `key` without building the database: the key (KDBX 4 header
  /// HMAC, KDBX 3 stream start bytes), every container layer (header SHA-256, HMAC or hashed blocks, cipher
  /// padding, gzip CRC and size, the inner header) and the XML document's well-formedness, with its root
  /// `KeePassFile` and, for KDBX 3.x, Meta's `HeaderHash` (KDBX 4.1 specification; KeePass `KdbxFile.Read`).
  ///
  /// This is the read-back check of a save: pass the transformed key that
  /// ``write(_:key:settings:primitives:random:checksDocument:limits:checksLimits:xml:)`` returned, and the KDF does not run again. It costs about half
  /// of a full ``open(bytes:key:primitives:random:options:xml:)``.
  /// - Throws: the errors of ``open(bytes:key:primitives:random:options:xml:)``.
  package static func verifyIntegrity<P: KDBXPrimitives>(
    bytes: [UInt8], key: CompositeKey, primitives: P, options: LoadOptions = .default
  ) throws(KDBXError) -> IntegrityReport {
    let decoded = try decodePayload(bytes: bytes, key: key, primitives: primitives, options: options)
    let document = try checkDocument(decoded.xml, options: options)
    var checkedHeaderHash = false
    if decoded.innerHeader == nil, let text = document.headerHashText {
      guard let stored = Base64.decode(text, options: .lenient) else {
        throw .malformedValue(element: XMLNames.headerHash, reason: "not base64")
      }
      try checkHeaderHash(stored, header: decoded.header)
      checkedHeaderHash = true
    }
    return IntegrityReport(
      version: decoded.header.version, xmlByteCount: decoded.xml.count, elementCount: document.elementCount,
      checkedHeaderHash: checkedHeaderHash, warnings: decoded.warnings)
  }

  /// The read-back check of a save made with `checksDocument` (``write(_:key:settings:primitives:random:checksDocument:limits:checksLimits:xml:)``):
  /// `bytes`, read back from storage, must be the bytes of `saved`, every container layer must open with the key
  /// the file was written with (no second KDF run), and the XML inside must be, byte for byte, the document that
  /// the save serialized and checked. It then waits for that check (``SavedFile/pendingCheck``: the open's own
  /// reader and limits over the document, started by the save) and throws what it found, so that a caller that
  /// keeps the file only after this call never keeps one that the open refuses.
  ///
  /// As strong as ``verifyIntegrity(bytes:key:primitives:options:)`` on the file read back, which the save
  /// checked document stands in for, and cheaper: the document is compared, not parsed again, and compared as the
  /// payload decompresses (`Gzip.verifyMember`), so no second copy of it is made.
  /// - Throws: `.malformedDocument` when the bytes or the document differ or `saved` kept no document, else the
  ///   errors of ``open(bytes:key:primitives:random:options:xml:)`` (the save's check's among them).
  package static func verifyReadBack<P: KDBXPrimitives>(_ bytes: [UInt8], of saved: SavedFile, primitives: P)
    throws(KDBXError)
  {
    guard let document = saved.document else {
      throw .malformedDocument(path: "/", reason: "the save kept no document to compare with")
    }
    guard ByteComparison.equal(bytes, saved.bytes) else {
      throw .malformedDocument(path: "/", reason: "the file read back differs from the bytes written")
    }
    var options = LoadOptions.default
    options.maxArgon2WorkBytes = .max
    options.maxAESKDFRounds = .max
    let container = try decodeContainer(
      bytes: bytes, key: CompositeKey(transformedSecret: saved.transformedKey), primitives: primitives,
      options: options)
    // The content (KDBX 4's inner header, then the XML) is compared as it is decompressed, without a second copy
    // of the document: the largest allocation of the read-back otherwise. The save writes a well-formed file
    // (padding, one gzip member, nothing after it), so no irregularity the open tolerates is accepted here.
    let prefix = saved.documentPrefix
    let matches: Bool
    if let paddingError = container.paddingError { throw paddingError }
    guard container.warnings.isEmpty else {
      throw .malformedDocument(path: "/", reason: "the file read back has an irregularity that the save does not write")
    }
    switch container.header.compression {
    case .gzip:
      do throws(CompressionError) {
        matches = try Gzip.verifyMember(container.payload, expecting: prefix, document)
      } catch {
        throw .compression(error)
      }
    case .none:
      let payload = container.payload
      // SAFETY: the arrays' own bytes, read inside the closures only; ByteComparison compares equal counts only.
      matches =
        payload.count == prefix.count + document.count
        && payload[..<prefix.count].withUnsafeBytes { a in prefix.withUnsafeBytes { ByteComparison.equal(a, $0) } }
        && payload[prefix.count...].withUnsafeBytes { a in document.withUnsafeBytes { ByteComparison.equal(a, $0) } }
    }
    guard matches else {
      throw .malformedDocument(path: "/KeePassFile", reason: "the XML read back differs from the XML written")
    }
    // The save's own check of the document, which has been running beside the encryption, the write and this
    // read-back.
    if let failure = saved.pendingCheck?.result() { throw failure }
  }

  /// What ``checkDocument(_:options:)`` found in a well-formed database XML document.
  package struct DocumentCheck {
    /// The number of elements.
    package var elementCount: Int
    /// The number of nodes, counted as the open counts them (`XMLNodeBudget`).
    package var nodeCount: Int
    /// The deepest group nesting (`Root/Group` is 1), as the open counts it.
    package var groupDepth: Int
    /// The text of `KeePassFile/Meta/HeaderHash`, when there is one.
    package var headerHashText: String?
  }

  /// Checks that `xml` is a well-formed XML document (W3C XML 1.0 §2.1) whose root element is `KeePassFile`,
  /// within the limits of `options` that the open applies to the document, counted the way the open counts them:
  /// the element depth (`LoadOptions/maxXMLDepth`), the nodes (`LoadOptions/maxXMLNodeCount`, through
  /// `XMLNodeBudget`) and the group nesting (`LoadOptions.maxGroupDepth`). Nothing is built but the text of
  /// `Meta/HeaderHash`. Every save runs it on the document it writes, so that a save never writes what the open
  /// refuses.
  package static func checkDocument(_ xml: [UInt8], options: LoadOptions) throws(KDBXError) -> DocumentCheck {
    var readerOptions = XMLReader.Options()
    readerOptions.limits.maximumDepth = options.maxXMLDepth
    var reader = XMLReader(bytes: xml, options: readerOptions)
    // Only the structure is needed, and the text of KDBX 3.x's Meta/HeaderHash: the reader checks all other text
    // without making strings of it (and counts it, for the node budget).
    reader.discardsText = true
    var nodes = XMLNodeBudget(limit: options.maxXMLNodeCount)
    var countedDiscardedText = 0
    var elementCount = 0
    var depth = 0
    var ancestors = ["", "", ""]
    // The group nesting at each open element (0 outside the group tree), as `DatabaseModelReader.readGroup`
    // counts it: `Root/Group` is 1, and each `Group` directly inside a counted group one more.
    var groupDepths: [Int] = []
    var deepestGroup = 0
    var inHeaderHash = false
    var headerHashText: String? = nil
    var rootName: String? = nil
    var failure: KDBXError? = nil
    // SAFETY: `reader` is not used after the scope of its borrowed input.
    try reader.withBorrowedInput { (reader) throws(KDBXError) in
      do throws(XMLError) {
        reading: while let event = try reader.next() {
          do throws(KDBXError) {
            if reader.discardedTextCount != countedDiscardedText {
              try nodes.add(nodes: reader.discardedTextCount - countedDiscardedText)
              countedDiscardedText = reader.discardedTextCount
            }
            try nodes.add(event)
          } catch {
            failure = error
            break reading
          }
          switch event {
          case .startElement(let name, _):
            if depth == 0 { rootName = name }
            elementCount += 1
            let parentGroupDepth = groupDepths.last ?? 0
            var groupDepth = 0
            if name == XMLNames.group {
              if parentGroupDepth > 0 {
                groupDepth = parentGroupDepth + 1
              } else if depth == 2 && ancestors[1] == XMLNames.root && ancestors[0] == XMLNames.keePassFile {
                groupDepth = 1
              }
            }
            groupDepths.append(groupDepth)
            if groupDepth > deepestGroup {
              deepestGroup = groupDepth
              if groupDepth > options.maxGroupDepth {
                failure = .limitExceeded(
                  what: "group nesting depth", value: UInt64(groupDepth),
                  limit: UInt64(clamping: options.maxGroupDepth))
                break reading
              }
            }
            if depth < 3 { ancestors[depth] = name }
            depth += 1
            inHeaderHash =
              depth == 3 && ancestors[2] == XMLNames.headerHash && ancestors[1] == XMLNames.meta
              && ancestors[0] == XMLNames.keePassFile
            if inHeaderHash { headerHashText = headerHashText ?? "" }
            reader.discardsText = !inHeaderHash
          case .endElement:
            depth -= 1
            _ = groupDepths.popLast()
            inHeaderHash = false
            reader.discardsText = true
          case .text(let text):
            if inHeaderHash { headerHashText = (headerHashText ?? "") + text }
          default:
            break
          }
        }
      } catch {
        throw .xml(error)
      }
    }
    if let failure { throw failure }
    guard rootName == XMLNames.keePassFile else {
      throw .malformedValue(element: rootName ?? "", reason: "the root element must be KeePassFile")
    }
    return DocumentCheck(
      elementCount: elementCount, nodeCount: nodes.count, groupDepth: deepestGroup, headerHashText: headerHashText)
  }
}

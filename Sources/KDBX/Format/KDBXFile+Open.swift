import KDBXBase
import KDBXCrypto
import KDBXXML

/// A database read from a file, with the container settings needed to save it the same way.
///
/// ```swift
/// let opened = try await KDBXFile.open(bytes: fileBytes, key: key)
/// var database = opened.database
/// database.meta.databaseName = "Family"
/// let saved = try await KDBXFile.save(database, key: key, settings: SaveSettings(keeping: opened))
/// ```
public struct OpenedDatabase: Sendable {
  /// The database content.
  public var database: Database
  /// The outer header as read.
  package var header: OuterHeader
  /// KDBX 4: the inner header as read (binaries are moved into ``Database/binaries``).
  package var innerHeader: InnerHeader?
  /// The transformed key, which a caller may cache to reopen without the KDF (``CompositeKey/init(transformedSecret:)``),
  /// in zeroing storage: the one the open derived or was given, not a copy, so that it is zeroed when the last holder
  /// (this value, its copies, a ``cachedKey`` or a session) releases it.
  package var transformedKey: SecureBytes
  /// Whether this database was read from a KeePass 1.x file (`OpenedDatabase(importing:)` in `KDBXImport`): then
  /// its settings are the KDBX 3.1 equivalent of the file's, and a save writes a KDBX file, never a KeePass 1.x one.
  public package(set) var isKeePass1 = false
  /// Whether the key that opened the file had a challenge-response component (a KDBX 3.1 master key needs the
  /// response beside the transformed key, so no ``cachedKey`` is offered then).
  package var usedChallengeResponse = false
  /// Harmless irregularities of another writer that were accepted after the file's integrity was proven (bytes
  /// after the compressed data, malformed final padding); empty for a regular file. A save writes none of them.
  package var warnings: [KDBXWarning] = []
}

extension OpenedDatabase {
  /// A database read from a KeePass 1.x file (`KDBXImport`'s reader), with `header` the KDBX 3.1 equivalent of the
  /// file's settings. The transformed key is copied into zeroing storage (the caller's array is left as it is).
  package init(keePass1 database: Database, header: OuterHeader, transformedKey: [UInt8]) {
    self.init(
      database: database, header: header, innerHeader: nil, transformedKey: SecureBytes(transformedKey),
      isKeePass1: true)
  }
}

extension KDBXFile {
  /// Opens a KDBX 2.x, 3.x or 4.x file (KDBX 4.1 specification; KeePass `KdbxFile.Read`).
  ///
  /// A wrong key gives ``KDBXError/invalidCredentials`` (KDBX 4 header HMAC, KDBX 3 stream start bytes or padding);
  /// a damaged file gives the error of the layer that found it (header field, block index, compression, XML).
  /// `xml` replaces the database XML reader (tests; ``DatabaseXMLOverride``).
  package static func open<P: KDBXPrimitives>(
    bytes: [UInt8], key: CompositeKey, primitives: P, random: inout some RandomNumberGenerator,
    options: LoadOptions = .default, xml: DatabaseXMLOverride<P.Stream> = .standard
  ) throws(KDBXError) -> OpenedDatabase {
    try open(bytes: bytes, key: key, derived: nil, primitives: primitives, random: &random, options: options, xml: xml)
  }

  /// ``open(bytes:key:primitives:random:options:xml:)``; with `derived`, the KDF output for `key` and the file's
  /// KDF parameters (the `async` open runs the KDF before it opens), no KDF runs here.
  static func open<P: KDBXPrimitives>(
    bytes: [UInt8], key: CompositeKey, derived: SecureBytes?, primitives: P,
    random: inout some RandomNumberGenerator, options: LoadOptions, xml: DatabaseXMLOverride<P.Stream> = .standard
  ) throws(KDBXError) -> OpenedDatabase {
    // A transformed key runs no KDF: the memory the KDF would need is not asked for.
    let options = key.isTransformed || derived != nil ? options.withoutMemoryBudget : options
    let decoded = try decodePayload(bytes: bytes, key: key, derived: derived, primitives: primitives, options: options)
    let header = decoded.header
    if let inner = decoded.innerHeader {
      var stream = try innerStream(inner.innerRandomStream, key: inner.innerRandomStreamKey, primitives: primitives)
      var database = try readDocument(
        decoded.xml, binaries: inner.binaries, stream: &stream, random: &random, primitives: primitives,
        options: options, xml: xml)
      applyOmissions(options, to: &database)
      return OpenedDatabase(
        database: database, header: header, innerHeader: inner, transformedKey: decoded.transformedKey,
        usedChallengeResponse: key.hasChallengeResponse, warnings: decoded.warnings)
    }
    let algorithm = header.innerRandomStream ?? .none
    var stream = try innerStream(algorithm, key: header.protectedStreamKey ?? [], primitives: primitives)
    var database = try readDocument(
      decoded.xml, binaries: [], stream: &stream, random: &random, primitives: primitives, options: options, xml: xml)
    if let stored = database.meta.headerHash {
      try checkHeaderHash(stored, header: header)
    }
    applyOmissions(options, to: &database)
    return OpenedDatabase(
      database: database, header: header, innerHeader: nil, transformedKey: decoded.transformedKey,
      usedChallengeResponse: key.hasChallengeResponse, warnings: decoded.warnings)
  }

  /// The model of the database XML document `document`: ``DatabaseXML``'s reader, or the override's.
  static func readDocument<P: KDBXPrimitives>(
    _ document: [UInt8], binaries: [InnerHeader.Binary], stream: inout P.Stream,
    random: inout some RandomNumberGenerator, primitives: P, options: LoadOptions, xml: DatabaseXMLOverride<P.Stream>
  ) throws(KDBXError) -> Database {
    if let read = xml.read { return try read(document, binaries, &stream, options) }
    return try DatabaseXML.read(
      xml: document, binaries: binaries, stream: &stream, random: &random, gzip: primitives, options: options)
  }

  /// Leaves out what `options` asks not to keep, and records it in ``Database/omittedOnLoad``.
  static func applyOmissions(_ options: LoadOptions, to database: inout Database) {
    if !options.loadsHistory { database.omittedOnLoad.insert(.history) }
    if !options.loadsAttachmentContents {
      database.binaries.omitContents()
      database.omittedOnLoad.insert(.attachmentContents)
    }
  }

  /// A file's payload after every container layer: the XML document's bytes, with the headers and key it took.
  struct DecodedPayload {
    var header: OuterHeader
    /// KDBX 4: the inner header.
    var innerHeader: InnerHeader?
    var xml: [UInt8]
    /// The KDF output, in zeroing storage.
    var transformedKey: SecureBytes
    /// Irregularities accepted once the integrity checks had passed.
    var warnings: [KDBXWarning] = []
  }

  /// Checks the key and every container layer (header hash and HMAC, block HMACs or hashes, cipher padding,
  /// decompression) and returns the XML document's bytes.
  ///
  /// Two irregularities of other writers are accepted, with a `KDBXWarning`, but only once the key and the
  /// content are proven (KDBX 4: the header HMAC and every block HMAC; KDBX 3.x: the stream start bytes and every
  /// block hash through the terminating empty block), so a wrong key or a damaged block is still refused: bytes
  /// after the end of the gzip member, and a final CBC block whose padding is malformed or absent.
  static func decodePayload<P: KDBXPrimitives>(
    bytes: [UInt8], key: CompositeKey, derived: SecureBytes? = nil, primitives: P, options: LoadOptions
  ) throws(KDBXError) -> DecodedPayload {
    let container = try decodeContainer(
      bytes: bytes, key: key, derived: derived, primitives: primitives, options: options)
    let header = container.header
    var payload = container.payload
    var warnings = container.warnings
    if header.compression == .gzip {
      let decompressed = try decompressPayload(payload, primitives: primitives, options: options)
      payload = decompressed.bytes
      if let paddingError = container.paddingError {
        guard decompressed.trailingByteCount <= FormatConstants.cbcBlockByteCount else { throw paddingError }
        warnings.append(.malformedFinalPadding(byteCount: decompressed.trailingByteCount))
      } else if decompressed.trailingByteCount > 0 {
        warnings.append(.bytesAfterCompressedData(byteCount: decompressed.trailingByteCount))
      }
    }
    guard header.version.isKDBX4 else {
      return DecodedPayload(
        header: header, innerHeader: nil, xml: payload, transformedKey: container.transformedKey,
        warnings: warnings)
    }
    let inner = try InnerHeader(parsing: payload, options: options)
    // In place: a copy into a new array costs a page fault per 4 KiB of a large document.
    payload.removeSubrange(0..<inner.byteCount)
    return DecodedPayload(
      header: header, innerHeader: inner, xml: payload, transformedKey: container.transformedKey, warnings: warnings)
  }

  /// A file's content after the container layers, before decompression.
  struct ContainerPayload {
    var header: OuterHeader
    /// The blocks' content, decrypted: gzip when the header says so; for KDBX 4, the inner header and the XML.
    var payload: [UInt8]
    /// The KDF output, in zeroing storage.
    var transformedKey: SecureBytes
    var warnings: [KDBXWarning]
    /// KDBX 4 with gzip: a malformed or absent final CBC padding, tolerated only when the gzip member ends within
    /// the last cipher block (known once it is decompressed).
    var paddingError: KDBXError?
  }

  /// The key and every container layer of ``decodePayload(bytes:key:derived:primitives:options:)`` (header hash
  /// and HMAC, block HMACs or hashes, cipher padding), up to the payload as it was compressed.
  static func decodeContainer<P: KDBXPrimitives>(
    bytes: [UInt8], key: CompositeKey, derived: SecureBytes? = nil, primitives: P, options: LoadOptions
  ) throws(KDBXError) -> ContainerPayload {
    let block = try readHeader(bytes: bytes, options: options)
    let header = block.header
    let transformed = try transformedKey(key, header: header, primitives: primitives, derived: derived)
    if header.version.isKDBX4 {
      return try decodeKDBX4(
        bytes: bytes, block: block, transformed: transformed, primitives: primitives, options: options)
    }
    var masterKey = key.kdbx3MasterKey(masterSeed: header.masterSeed, transformedKey: transformed)
    defer { SecureBytes.wipe(&masterKey) }
    let ciphertext = Array(bytes[block.payloadOffset...])
    let startBytes = header.streamStartBytes ?? []
    let plaintext: [UInt8]
    var paddingError: KDBXError? = nil
    do throws(KDBXError) {
      plaintext = try primitives.decrypt(ciphertext, cipher: header.cipher, key: masterKey, iv: header.encryptionIV)
    } catch {
      // A wrong key and a damaged or truncated end both break the padding, and some writers leave it malformed or
      // out: the stream start bytes tell a wrong key, and the hashed block stream below decides the rest.
      guard case .crypto(.invalidPadding) = error else { throw error }
      let leading = try primitives.decryptLeadingBytes(
        ciphertext, byteCount: startBytes.count, cipher: header.cipher, key: masterKey, iv: header.encryptionIV)
      guard let leading else {
        throw .truncated(offset: block.payloadOffset + ciphertext.count, needed: startBytes.count - ciphertext.count)
      }
      guard ConstantTime.equals(leading, startBytes) else { throw .invalidCredentials }
      // The key is right: every block, without the padding check.
      guard
        let unpadded = try primitives.decryptLeadingBytes(
          ciphertext, byteCount: ciphertext.count, cipher: header.cipher, key: masterKey, iv: header.encryptionIV)
      else { throw error }
      plaintext = unpadded
      paddingError = error
    }
    guard plaintext.count >= startBytes.count else {
      throw .truncated(offset: block.payloadOffset + ciphertext.count, needed: startBytes.count - plaintext.count)
    }
    guard ConstantTime.equals(Array(plaintext[0..<startBytes.count]), startBytes) else { throw .invalidCredentials }
    let stream = try HashedBlockStream.readThroughEnd(plaintext, from: startBytes.count, options: options)
    var warnings: [KDBXWarning] = []
    if let paddingError {
      // Tolerated only when every block hash verified through the terminating empty block (just done) and what
      // follows it lies in the last cipher block: the padding, malformed, or nothing when it is absent.
      let padding = plaintext.count - stream.end
      guard padding <= FormatConstants.cbcBlockByteCount else { throw paddingError }
      warnings.append(.malformedFinalPadding(byteCount: padding))
    }
    return ContainerPayload(
      header: header, payload: stream.payload, transformedKey: transformed, warnings: warnings, paddingError: nil)
  }

  /// Decompresses an authenticated payload. Bytes after the last gzip member (RFC 1952 §2.2) that do not start
  /// another member are not content: the members before them are returned with their count (`gzip -d` also ignores
  /// them). Such a payload is decompressed twice, which costs only the files that have them.
  static func decompressPayload<P: KDBXPrimitives>(_ payload: [UInt8], primitives: P, options: LoadOptions)
    throws(KDBXError) -> (bytes: [UInt8], trailingByteCount: Int)
  {
    do throws(KDBXError) {
      return (try primitives.decompressGzip(payload, maxOutputByteCount: options.maxPayloadByteCount), 0)
    } catch {
      guard case .compression(.trailingGarbage(let end)) = error, end > 0, end < payload.count else { throw error }
      let members = try primitives.decompressGzip(
        Array(payload[0..<end]), maxOutputByteCount: options.maxPayloadByteCount)
      return (members, payload.count - end)
    }
  }

  /// KDBX 3.x: the `HeaderHash` in Meta must be the SHA-256 of the header as read.
  static func checkHeaderHash(_ stored: [UInt8], header: OuterHeader) throws(KDBXError) {
    guard ConstantTime.equals(stored, SHA256.hash(header.rawBytes).bytes) else { throw .headerHashMismatch }
  }

  static func decodeKDBX4<P: KDBXPrimitives>(
    bytes: [UInt8], block: HeaderBlock, transformed: SecureBytes, primitives: P, options: LoadOptions
  ) throws(KDBXError) -> ContainerPayload {
    let header = block.header
    var baseKeyInput = CompositeKey.kdbx4HMACBaseKeyInput(masterSeed: header.masterSeed, transformedKey: transformed)
    let authenticator = primitives.blockAuthenticator(baseKey: primitives.sha512(baseKeyInput))
    SecureBytes.wipe(&baseKeyInput)
    try HMACBlockStream.verifyHeader(
      header.rawBytes, storedHMAC: block.storedHeaderHMAC ?? [], authenticator: authenticator)
    // Every block HMAC is checked (and the stream must end with its empty block) before anything is decrypted: the
    // ciphertext is then exactly what the key holder wrote. (Checking them on a helper beside the decryption, which
    // runs in pieces on every core, gained nothing: 55.1 ms either way for large_5000 with the second core free,
    // 98.6 against 98.3 ms with it busy; issue #36.)
    let ciphertext = try HMACBlockStream.read(
      bytes, from: block.payloadOffset, authenticator: authenticator, options: options)
    var cipherKey = CompositeKey.kdbx4CipherKey(masterSeed: header.masterSeed, transformedKey: transformed)
    defer { SecureBytes.wipe(&cipherKey) }
    let payload: [UInt8]
    var paddingError: KDBXError? = nil
    do throws(KDBXError) {
      payload = try primitives.decrypt(ciphertext, cipher: header.cipher, key: cipherKey, iv: header.encryptionIV)
    } catch {
      // A malformed or absent final CBC padding can be read past when the gzip member delimits the content.
      guard case .crypto(.invalidPadding) = error, header.compression == .gzip,
        let unpadded = try primitives.decryptLeadingBytes(
          ciphertext, byteCount: ciphertext.count, cipher: header.cipher, key: cipherKey, iv: header.encryptionIV)
      else { throw error }
      payload = unpadded
      paddingError = error
    }
    return ContainerPayload(
      header: header, payload: payload, transformedKey: transformed, warnings: [], paddingError: paddingError)
  }

  /// The KDF output for `key`, held in zeroing storage (the KDF's input and output arrays are zeroed): `derived`
  /// when the caller already ran the KDF (the `async` open and save), the key itself when it is a transformed key,
  /// else a run of `primitives`' KDF.
  static func transformedKey<P: KDBXPrimitives>(
    _ key: CompositeKey, header: OuterHeader, primitives: P, derived: SecureBytes? = nil
  ) throws(KDBXError) -> SecureBytes {
    if let derived { return derived }
    if let cached = key.transformedSecret { return cached }
    guard var composite = key.compositeKey(for: header.version) else { throw .invalidCredentials }
    defer { SecureBytes.wipe(&composite) }
    var derived = try primitives.transformKey(composite, parameters: header.kdf)
    return SecureBytes(consuming: &derived)
  }

  /// Derives the inner random stream's key and nonce (KDBX 4.1 specification, "Inner Random Stream").
  static func innerStream<P: KDBXPrimitives>(
    _ algorithm: InnerRandomStreamAlgorithm, key: [UInt8], primitives: P
  ) throws(KDBXError) -> P.Stream {
    switch algorithm {
    case .salsa20:
      return try primitives.makeInnerStream(.salsa20, key: SHA256.hash(key).bytes, nonce: kdbxSalsa20InnerStreamNonce)
    case .chaCha20:
      let hash = primitives.sha512(key)
      guard hash.count == 64 else { throw .malformedInnerHeader(field: "InnerRandomStreamKey", reason: "bad hash") }
      return try primitives.makeInnerStream(.chaCha20, key: Array(hash[0..<32]), nonce: Array(hash[32..<44]))
    case .none:
      return try primitives.makeInnerStream(.none, key: [], nonce: [])
    case .arcFourVariant:
      throw .unsupportedInnerRandomStream(id: algorithm.rawValue)
    }
  }
}

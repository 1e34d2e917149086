import KDBXCrypto
import KDBXXML

/// A database read from a file, with the container settings needed to save it the same way.
public struct OpenedDatabase: Sendable {
  /// The database content.
  public var database: Database
  /// The outer header as read.
  public var header: OuterHeader
  /// KDBX 4: the inner header as read (binaries are moved into ``Database/binaries``).
  public var innerHeader: InnerHeader?
  /// The transformed key, which a caller may cache to reopen without the KDF (``CompositeKey/init(transformedKey:)``).
  public var transformedKey: [UInt8]
}

extension KDBXFile {
  /// Opens a KDBX 2.x, 3.x or 4.x file (KDBX 4.1 specification; KeePass `KdbxFile.Read`).
  ///
  /// A wrong key gives ``KDBXError/invalidCredentials`` (KDBX 4 header HMAC, KDBX 3 stream start bytes or padding);
  /// a damaged file gives the error of the layer that found it (header field, block index, compression, XML).
  public static func open<P: KDBXPrimitives>(
    bytes: [UInt8], key: CompositeKey, primitives: P, random: inout some RandomNumberGenerator,
    options: LoadOptions = .default
  ) throws(KDBXError) -> OpenedDatabase {
    let decoded = try decodePayload(bytes: bytes, key: key, primitives: primitives, options: options)
    let header = decoded.header
    if let inner = decoded.innerHeader {
      var stream = try innerStream(inner.innerRandomStream, key: inner.innerRandomStreamKey, primitives: primitives)
      let database = try primitives.readDatabase(
        xml: decoded.xml, binaries: inner.binaries, stream: &stream, random: &random, options: options)
      return OpenedDatabase(
        database: database, header: header, innerHeader: inner, transformedKey: decoded.transformedKey.bytes)
    }
    let algorithm = header.innerRandomStream ?? .none
    var stream = try innerStream(algorithm, key: header.protectedStreamKey ?? [], primitives: primitives)
    let database = try primitives.readDatabase(
      xml: decoded.xml, binaries: [], stream: &stream, random: &random, options: options)
    if let stored = database.meta.headerHash {
      try checkHeaderHash(stored, header: header)
    }
    return OpenedDatabase(
      database: database, header: header, innerHeader: nil, transformedKey: decoded.transformedKey.bytes)
  }

  /// A file's payload after every container layer: the XML document's bytes, with the headers and key it took.
  struct DecodedPayload {
    var header: OuterHeader
    /// KDBX 4: the inner header.
    var innerHeader: InnerHeader?
    var xml: [UInt8]
    /// The KDF output, in zeroing storage.
    var transformedKey: SecureBytes
  }

  /// Checks the key and every container layer (header hash and HMAC, block HMACs or hashes, cipher padding,
  /// decompression) and returns the XML document's bytes.
  static func decodePayload<P: KDBXPrimitives>(
    bytes: [UInt8], key: CompositeKey, primitives: P, options: LoadOptions
  ) throws(KDBXError) -> DecodedPayload {
    let block = try readHeader(bytes: bytes, options: options)
    let header = block.header
    let transformed = try transformedKey(key, header: header, primitives: primitives)
    if header.version.isKDBX4 {
      return try decodeKDBX4(
        bytes: bytes, block: block, transformed: transformed, primitives: primitives, options: options)
    }
    var masterKey = key.kdbx3MasterKey(masterSeed: header.masterSeed, transformedKey: transformed)
    defer { SecureBytes.wipe(&masterKey) }
    let ciphertext = Array(bytes[block.payloadOffset...])
    let startBytes = header.streamStartBytes ?? []
    let plaintext: [UInt8]
    do throws(KDBXError) {
      plaintext = try primitives.decrypt(ciphertext, cipher: header.cipher, key: masterKey, iv: header.encryptionIV)
    } catch {
      // A wrong key and a damaged or truncated end both break the padding: the stream start bytes decide.
      if case .crypto(.invalidPadding) = error {
        let leading = try primitives.decryptLeadingBytes(
          ciphertext, byteCount: startBytes.count, cipher: header.cipher, key: masterKey, iv: header.encryptionIV)
        guard let leading else {
          throw .truncated(offset: block.payloadOffset + ciphertext.count, needed: startBytes.count - ciphertext.count)
        }
        guard ConstantTime.equals(leading, startBytes) else { throw .invalidCredentials }
      }
      throw error
    }
    guard plaintext.count >= startBytes.count else {
      throw .truncated(offset: block.payloadOffset + ciphertext.count, needed: startBytes.count - plaintext.count)
    }
    guard ConstantTime.equals(Array(plaintext[0..<startBytes.count]), startBytes) else { throw .invalidCredentials }
    var payload = try HashedBlockStream.read(plaintext, from: startBytes.count, options: options)
    if header.compression == .gzip {
      payload = try primitives.decompressGzip(payload, maxOutputByteCount: options.maxPayloadByteCount)
    }
    return DecodedPayload(header: header, innerHeader: nil, xml: payload, transformedKey: transformed)
  }

  /// KDBX 3.x: the `HeaderHash` in Meta must be the SHA-256 of the header as read.
  static func checkHeaderHash(_ stored: [UInt8], header: OuterHeader) throws(KDBXError) {
    guard ConstantTime.equals(stored, SHA256.hash(header.rawBytes).bytes) else { throw .headerHashMismatch }
  }

  static func decodeKDBX4<P: KDBXPrimitives>(
    bytes: [UInt8], block: HeaderBlock, transformed: SecureBytes, primitives: P, options: LoadOptions
  ) throws(KDBXError) -> DecodedPayload {
    let header = block.header
    var baseKeyInput = CompositeKey.kdbx4HMACBaseKeyInput(masterSeed: header.masterSeed, transformedKey: transformed)
    let authenticator = primitives.blockAuthenticator(baseKey: primitives.sha512(baseKeyInput))
    SecureBytes.wipe(&baseKeyInput)
    try HMACBlockStream.verifyHeader(
      header.rawBytes, storedHMAC: block.storedHeaderHMAC ?? [], authenticator: authenticator)
    let ciphertext = try HMACBlockStream.read(
      bytes, from: block.payloadOffset, authenticator: authenticator, options: options)
    var cipherKey = CompositeKey.kdbx4CipherKey(masterSeed: header.masterSeed, transformedKey: transformed)
    defer { SecureBytes.wipe(&cipherKey) }
    var payload = try primitives.decrypt(ciphertext, cipher: header.cipher, key: cipherKey, iv: header.encryptionIV)
    if header.compression == .gzip {
      payload = try primitives.decompressGzip(payload, maxOutputByteCount: options.maxPayloadByteCount)
    }
    let inner = try InnerHeader(parsing: payload, options: options)
    // In place: a copy into a new array costs a page fault per 4 KiB of a large document.
    payload.removeSubrange(0..<inner.byteCount)
    return DecodedPayload(header: header, innerHeader: inner, xml: payload, transformedKey: transformed)
  }

  /// The KDF output for `key`, or the cached transformed key, held in zeroing storage (the KDF's input and output
  /// arrays are zeroed).
  static func transformedKey<P: KDBXPrimitives>(_ key: CompositeKey, header: OuterHeader, primitives: P)
    throws(KDBXError) -> SecureBytes
  {
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

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
    let block = try readHeader(bytes: bytes, options: options)
    let header = block.header
    let transformed = try transformedKey(key, header: header, primitives: primitives)
    if header.version.isKDBX4 {
      return try openKDBX4(
        bytes: bytes, block: block, transformed: transformed, primitives: primitives, random: &random,
        options: options)
    }
    var masterKey = key.kdbx3MasterKey(masterSeed: header.masterSeed, transformedKey: transformed)
    defer { SecureBytes.wipe(&masterKey) }
    let ciphertext = Array(bytes[block.payloadOffset...])
    let plaintext: [UInt8]
    do throws(KDBXError) {
      plaintext = try primitives.decrypt(ciphertext, cipher: header.cipher, key: masterKey, iv: header.encryptionIV)
    } catch {
      if case .crypto(.invalidPadding) = error { throw .invalidCredentials }
      throw error
    }
    let startBytes = header.streamStartBytes ?? []
    guard plaintext.count >= startBytes.count,
      ConstantTime.equals(Array(plaintext[0..<startBytes.count]), startBytes)
    else { throw .invalidCredentials }
    var payload = try HashedBlockStream.read(plaintext, from: startBytes.count, options: options)
    if header.compression == .gzip {
      payload = try primitives.decompressGzip(payload, maxOutputByteCount: options.maxPayloadByteCount)
    }
    let document = try primitives.parseXML(payload, maxDepth: options.maxXMLDepth)
    let algorithm = header.innerRandomStream ?? .none
    var stream = try innerStream(algorithm, key: header.protectedStreamKey ?? [], primitives: primitives)
    let database = try DatabaseXMLReader.read(
      document: document, stream: &stream, random: &random, gzip: primitives, options: options)
    if let stored = database.meta.headerHash,
      !ConstantTime.equals(stored, SHA256.hash(header.rawBytes).bytes)
    {
      throw .headerHashMismatch
    }
    return OpenedDatabase(database: database, header: header, innerHeader: nil, transformedKey: transformed.bytes)
  }

  static func openKDBX4<P: KDBXPrimitives>(
    bytes: [UInt8], block: HeaderBlock, transformed: SecureBytes, primitives: P,
    random: inout some RandomNumberGenerator, options: LoadOptions
  ) throws(KDBXError) -> OpenedDatabase {
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
    let document = try primitives.parseXML(Array(payload[inner.byteCount...]), maxDepth: options.maxXMLDepth)
    var stream = try innerStream(inner.innerRandomStream, key: inner.innerRandomStreamKey, primitives: primitives)
    let database = try DatabaseXMLReader.read(
      document: document, binaries: inner.binaries, stream: &stream, random: &random, gzip: primitives,
      options: options)
    return OpenedDatabase(database: database, header: header, innerHeader: inner, transformedKey: transformed.bytes)
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

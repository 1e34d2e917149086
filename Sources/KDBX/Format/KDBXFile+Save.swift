import KDBXBase
import KDBXCrypto
import KDBXXML

/// The container settings of a save: version, cipher, KDF, compression and inner random stream.
///
/// A new file, or an existing one saved the way it was read:
///
/// ```swift
/// let salt = [UInt8](repeating: 0, count: 32)  // a save draws a fresh salt
/// let argon2 = Argon2KDFParameters(variant: .id, iterations: 2, memoryBytes: 64 << 20, parallelism: 2, salt: salt)
/// let settings = SaveSettings(version: .v4_1, kdf: .argon2(argon2))
/// let newFile = try await KDBXFile.save(database, key: key, settings: settings)
/// let resaved = try await KDBXFile.save(opened.database, key: key, settings: SaveSettings(keeping: opened))
/// ```
public struct SaveSettings: Sendable, Equatable {
  public var version: KDBXVersion
  public var cipher: CipherAlgorithm
  /// The KDF and its cost parameters. Seeds and salts are replaced by fresh random ones on every save, except when
  /// the key is an already-transformed key (which is only valid with the seed it was made with).
  public var kdf: KDFParameters
  public var compression: CompressionAlgorithm
  /// The inner random stream: KeePass uses Salsa20 for KDBX 3.x and ChaCha20 for 4.x.
  package var innerRandomStream: InnerRandomStreamAlgorithm
  /// KDBX 4: public custom data for the outer header.
  package var publicCustomData: VariantDictionary?
  /// A downgrade the caller accepted. Without it, a save raises ``version`` to the minimum the content needs
  /// (`VersionRequirements.effectiveVersion(for:settings:)`); with it, and only if it still lists exactly what
  /// would be lost, the requested version is written and the listed features are dropped.
  package var acceptedDowngrade: DowngradeReport?

  /// Settings for a new file: `version`, `cipher`, `kdf` and `compression`; the inner random stream is the one
  /// KeePass writes for the version (Salsa20 for KDBX 3.1, ChaCha20 for 4.x).
  public init(
    version: KDBXVersion, cipher: CipherAlgorithm = .aes256, kdf: KDFParameters,
    compression: CompressionAlgorithm = .gzip
  ) {
    self.init(
      version: version, cipher: cipher, kdf: kdf, compression: compression, innerRandomStream: nil,
      publicCustomData: nil)
  }

  /// Settings with an explicit inner random stream and public custom data (format-level).
  package init(
    version: KDBXVersion, cipher: CipherAlgorithm = .aes256, kdf: KDFParameters,
    compression: CompressionAlgorithm = .gzip, innerRandomStream: InnerRandomStreamAlgorithm?,
    publicCustomData: VariantDictionary? = nil
  ) {
    self.version = version
    self.cipher = cipher
    self.kdf = kdf
    self.compression = compression
    self.innerRandomStream = innerRandomStream ?? (version.isKDBX4 ? .chaCha20 : .salsa20)
    self.publicCustomData = publicCustomData
    self.acceptedDowngrade = nil
  }

  /// The settings a file was read with (KDBX 2.x and 3.0 files are written as 3.1).
  public init(keeping opened: OpenedDatabase) {
    let header = opened.header
    let version: KDBXVersion = header.version < .v3_1 ? .v3_1 : header.version
    self.init(
      version: version, cipher: header.cipher, kdf: header.kdf, compression: header.compression,
      innerRandomStream: opened.innerHeader?.innerRandomStream ?? header.innerRandomStream,
      publicCustomData: header.publicCustomData)
  }
}

/// A file that `KDBXFile/write(_:key:settings:primitives:random:)` produced.
package struct SavedFile: Sendable {
  /// The whole file.
  package var bytes: [UInt8]
  /// The KDF output for the file's key and KDF seed: ``CompositeKey/init(transformedSecret:)`` opens the file
  /// without running the KDF. Secret: keep it like the key itself. Held in zeroing storage, shared (not copied)
  /// with the key the save was given when that was a transformed key.
  package var transformedKey: SecureBytes
  /// The database XML the file holds, when the save was asked to check it (``KDBXFile/write(_:key:settings:primitives:random:checksDocument:limits:checksLimits:xml:)``):
  /// what ``KDBXFile/verifyReadBack(_:of:primitives:)`` compares the file's content with.
  package var document: [UInt8]? = nil
  /// With ``document``: what the file's content holds before it (KDBX 4's inner header; empty for KDBX 3.x), which
  /// ``KDBXFile/verifyReadBack(_:of:primitives:)`` compares too.
  package var documentPrefix: [UInt8] = []
  /// The save's check of ``document`` (the open's reader and limits, `KDBXFile.checkOpens`), when the save was
  /// asked to keep the document: started when the document was complete and still running, so that it overlaps
  /// the encryption, the write and the read-back; ``KDBXFile/verifyReadBack(_:of:primitives:)`` waits for it and
  /// throws what it found. A file from such a save is kept only after that read-back.
  package var pendingCheck: StartedWork<KDBXError?>? = nil
}

extension KDBXFile {
  /// Writes `database` as a KDBX file, in `VersionRequirements.effectiveVersion(for:settings:)`, with fresh master seed, IV, inner stream key, stream start bytes and KDF
  /// seed drawn from `random`. With an injected generator (and the model's injected times) the output is
  /// byte-for-byte reproducible.
  package static func save<P: KDBXPrimitives>(
    _ database: Database, key: CompositeKey, settings: SaveSettings, primitives: P,
    random: inout some RandomNumberGenerator
  ) throws(KDBXError) -> [UInt8] {
    try write(database, key: key, settings: settings, primitives: primitives, random: &random).bytes
  }

  /// Writes `database` as ``save(_:key:settings:primitives:random:)`` does, and also returns the transformed key
  /// the file was written with, so that the caller can read the file back without running the KDF again (for
  /// example to verify a save with ``verifyIntegrity(bytes:key:primitives:options:)``).
  ///
  /// Every save checks the database against the open's default limits (the group nesting before it writes; the
  /// XML document, read by the open's own reader while the payload is compressed, on another core when there is
  /// one), so that it never writes a file that the open refuses. With `checksDocument`, the XML document is also
  /// kept in ``SavedFile/document``, and the document's check is left running (``SavedFile/pendingCheck``) for
  /// ``verifyReadBack(_:of:primitives:)`` to collect: the caller keeps the file only once that read-back passes.
  ///
  /// `limits` are the open's limits the save keeps to (the defaults: a file that ``open(bytes:key:options:)``
  /// with its default options accepts; tests lower them to check the boundaries). `checksLimits` false writes
  /// the document unchecked: only for tests that make deliberately hostile files for the open to refuse. `xml`
  /// replaces the database XML writer (tests; ``DatabaseXMLOverride``).
  package static func write<P: KDBXPrimitives>(
    _ database: Database, key: CompositeKey, settings: SaveSettings, primitives: P,
    random: inout some RandomNumberGenerator, checksDocument: Bool = false, limits: LoadOptions = .default,
    checksLimits: Bool = true, xml: DatabaseXMLOverride<P.Stream> = .standard
  ) throws(KDBXError) -> SavedFile {
    try write(
      database, key: key, settings: settings, primitives: primitives, random: &random, derived: nil,
      checksDocument: checksDocument, limits: checksLimits ? limits : nil, xml: xml)
  }

  /// ``write(_:key:settings:primitives:random:checksDocument:limits:checksLimits:xml:)``; with `derived`, the KDF output for `key` and
  /// the KDF parameters of `settings` (the `async` save salts them with ``salted(_:_:)`` and runs the KDF before
  /// it writes), the file is written with it and those parameters as they are, and no KDF runs here.
  static func write<P: KDBXPrimitives>(
    _ database: Database, key: CompositeKey, settings: SaveSettings, primitives: P,
    random: inout some RandomNumberGenerator, derived: SecureBytes?, checksDocument: Bool = false,
    limits: LoadOptions? = .default, xml: DatabaseXMLOverride<P.Stream> = .standard
  ) throws(KDBXError) -> SavedFile {
    if !database.omittedOnLoad.isEmpty {
      var parts: [String] = []
      if database.omittedOnLoad.contains(.attachmentContents) { parts.append("its attachment contents") }
      if database.omittedOnLoad.contains(.history) { parts.append("its entry histories") }
      throw .incompleteDatabase(reason: parts.joined(separator: " and "))
    }
    // The open's limits, checked before anything is written: the group tree here (it may be of any depth when it
    // was built through the API, and the walk below must not go deeper), the document when it has been written
    // (`SavePipeline`).
    if let limits { try database.checkGroupNesting(limits) }
    var database = database.flatteningNestedHistory().compactingBinaries()
    let kdf = key.isTransformed || derived != nil ? settings.kdf : salted(settings.kdf, &random)
    let version = VersionRequirements.effectiveVersion(for: database, settings: settings)
    let streamKey = randomBytes(version.isKDBX4 ? 64 : 32, &random)
    var header = OuterHeader(
      version: version, cipher: settings.cipher, compression: settings.compression,
      masterSeed: randomBytes(FormatConstants.masterSeedByteCount, &random),
      encryptionIV: randomBytes(settings.cipher.ivByteCount, &random), kdf: kdf,
      publicCustomData: version.isKDBX4 ? settings.publicCustomData : nil)
    if !version.isKDBX4 {
      header.protectedStreamKey = streamKey
      header.streamStartBytes = randomBytes(FormatConstants.streamStartBytesByteCount, &random)
      header.innerRandomStream = settings.innerRandomStream
    }
    let headerBytes = try header.serialized()
    let transformed = try transformedKey(key, header: header, primitives: primitives, derived: derived)
    var stream = try innerStream(settings.innerRandomStream, key: streamKey, primitives: primitives)

    if !version.isKDBX4 {
      database.meta.headerHash = SHA256.hash(headerBytes).bytes
      let (document, payload, pendingCheck) = try SavePipeline.payload(
        database, version: version, stream: &stream, prefix: [], binaries: [], checksDocument: checksDocument,
        limits: limits, compression: settings.compression, primitives: primitives, serialize: xml.serialize)
      let plaintext = (header.streamStartBytes ?? []) + HashedBlockStream.write(payload)
      var masterKey = key.kdbx3MasterKey(masterSeed: header.masterSeed, transformedKey: transformed)
      defer { SecureBytes.wipe(&masterKey) }
      let bytes =
        headerBytes
        + (try primitives.encrypt(plaintext, cipher: header.cipher, key: masterKey, iv: header.encryptionIV))
      return SavedFile(bytes: bytes, transformedKey: transformed, document: document, pendingCheck: pendingCheck)
    }

    database.meta.headerHash = nil
    let inner = InnerHeader(
      innerRandomStream: settings.innerRandomStream, innerRandomStreamKey: streamKey,
      binaries: database.binaries.binaries.map { .init(isProtected: $0.isProtected, data: $0.data) })
    let prefix = inner.serialized()
    let (document, payload, pendingCheck) = try SavePipeline.payload(
      database, version: version, stream: &stream, prefix: prefix, binaries: inner.binaries,
      checksDocument: checksDocument, limits: limits, compression: settings.compression, primitives: primitives,
      serialize: xml.serialize)
    var cipherKey = CompositeKey.kdbx4CipherKey(masterSeed: header.masterSeed, transformedKey: transformed)
    defer { SecureBytes.wipe(&cipherKey) }
    let ciphertext = try primitives.encrypt(payload, cipher: header.cipher, key: cipherKey, iv: header.encryptionIV)
    var baseKeyInput = CompositeKey.kdbx4HMACBaseKeyInput(masterSeed: header.masterSeed, transformedKey: transformed)
    let authenticator = primitives.blockAuthenticator(baseKey: primitives.sha512(baseKeyInput))
    SecureBytes.wipe(&baseKeyInput)
    let bytes =
      headerBytes + SHA256.hash(headerBytes).bytes
      + HMACBlockStream.headerHMAC(headerBytes, authenticator: authenticator)
      + HMACBlockStream.write(ciphertext, authenticator: authenticator)
    return SavedFile(
      bytes: bytes, transformedKey: transformed, document: document, documentPrefix: document == nil ? [] : prefix,
      pendingCheck: pendingCheck)
  }

  /// Checks, without a key and without running the KDF, that a save of `database` with `settings` would be
  /// written: its document read as the open reads it, within the open's default limits (the check every save
  /// runs). A tool that builds a database from input (an import) calls it before it asks for a password, so that
  /// input too large or too deep for a vault is refused before anything is asked or written.
  /// - Throws: what the save would throw for the content (``KDBXError/limitExceeded(what:value:limit:)`` and the
  ///   open's other errors).
  package static func checkSavable(_ database: Database, settings: SaveSettings) throws(KDBXError) {
    try database.checkGroupNesting(.default)
    let database = database.flatteningNestedHistory().compactingBinaries()
    let version = VersionRequirements.effectiveVersion(for: database, settings: settings)
    var stream = PlaintextInnerStream()
    let xml = try DatabaseXML.serialize(database, version: version, stream: &stream)
    let binaries =
      version.isKDBX4
      ? database.binaries.binaries.map { InnerHeader.Binary(isProtected: $0.isProtected, data: $0.data) } : []
    try KDBXFile.checkOpens(
      xml: xml, binaries: binaries, options: .default)
  }

  /// `kdf` with a fresh 32-byte seed (AES-KDF) or salt (Argon2) from `random`: what a save with a composite key
  /// writes (the synchronous and the `async` save, and a session that derives the key it saves with).
  static func salted(_ kdf: KDFParameters, _ random: inout some RandomNumberGenerator) -> KDFParameters {
    switch kdf {
    case .aesKDF(var aes):
      aes.seed = randomBytes(32, &random)
      return .aesKDF(aes)
    case .argon2(var argon):
      argon.salt = randomBytes(32, &random)
      return .argon2(argon)
    }
  }

  static func randomBytes(_ count: Int, _ random: inout some RandomNumberGenerator) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(count)
    var word: UInt64 = 0
    for index in 0..<count {
      if index % 8 == 0 { word = random.next() }
      out.append(UInt8(truncatingIfNeeded: word >> ((index % 8) * 8)))
    }
    return out
  }
}

import KDBX
import KDBXCrypto

/// A KeePass 1.x database read from a file: the content as a ``Database`` ready to be saved as KDBX, and the file's
/// settings.
public struct KDB1OpenedDatabase: Sendable {
  /// The content, under a new root group (KeePass 1.x has none).
  public var database: Database
  /// The header as read.
  package var header: KDB1Header
  /// The AES-KDF output, which a caller may cache to reopen without the KDF (``CompositeKey/init(transformedKey:)``).
  package var transformedKey: [UInt8]
  /// The encoding of the password that opened the file; `nil` for a key file alone or a transformed key.
  package var passwordEncoding: KDB1PasswordEncoding?
  /// The names of the meta-stream entries consumed (settings and UI state, not entries), in file order.
  package var metaStreams: [String]
}

/// Reading KeePass 1.x (`.kdb`) files, to import them (KeePass 1.x `PwManager.cpp` `OpenDatabase`; KeePassXC
/// `KeePass1Reader`). Nothing is written in this format.
///
/// The file is a 124-byte header and the content encrypted with AES-256 or Twofish-256 in CBC mode with
/// PKCS#7 padding. The key: the raw key from the password and key file (``CompositeKey``; KeePass 1.x rules, see
/// below), AES-KDF with the header's transform seed and rounds, then `SHA-256(masterSeed ‖ transformed key)`.
/// The content is `KDB1Records`; its SHA-256 is in the header.
///
/// Keys tried: KeePass 1.x for Windows hashed the password in CP-1252, KeePassX in Latin-1 (before 0.3.1) or
/// UTF-8 (before 0.2.2), so the password is tried in those encodings in that order, each only when its bytes
/// differ (one key derivation each; an ASCII password needs one). With a key file too, the raw key is
/// `SHA-256(SHA-256(password) ‖ key file key)`; a key file alone (or with an empty password) is its key. XML key
/// files are hashed whole, as KeePass 1.x hashes any file that is not 32 bytes or 64 hex digits.
///
/// Wrong key or damage: KeePass 1.x has no stream start bytes or HMAC, only the content hash, so a wrong key and
/// damaged content both show as bad padding or a hash mismatch (KeePassXC: "Wrong key or database file is
/// corrupt"). This reader looks at the decrypted bytes to tell them apart: with the right key the content starts
/// with a record field of a known type and size and ends, before valid padding, with the end field of the last
/// record (`FF FF 00 00 00 00`). Decrypted with a wrong key, the bytes are random: the chance that either check
/// passes is below 1 in 10^9. So when the hash or the padding fails and either check passes, the key is right and
/// the content is damaged (``KDBXError/damagedContent(reason:)``; damage at both ends at once reads as a wrong
/// key); otherwise the key is wrong (``KDBXError/invalidCredentials``). CBC confines damage: a changed IV or first
/// block spoils only the start, a changed or cut end only the end.
public enum KDB1File {
  /// Whether `bytes` start with the KeePass 1.x signatures (`0x9AA2D903 0xB54BFB65`).
  public static func isKDB1(_ bytes: [UInt8]) -> Bool { KDB1Header.hasSignature(bytes) }

  /// Opens a KeePass 1.x file.
  ///
  /// - Parameters:
  ///   - key: the password and key file (or a transformed key from an earlier open); challenge-response keys do
  ///     not apply to KeePass 1.x files.
  ///   - primitives: the AES-KDF and the ciphers.
  ///   - clock: the time for what the file has no time for, used only when the file records no valid time at all
  ///     (otherwise its latest time is used, so that the same file always gives the same database).
  ///   - random: UUIDs of the new groups and custom icons, pads of protected values.
  ///   - options: the AES-KDF rounds and content size limits, and the XML depth the saved file must stay within
  ///     (group nesting is capped as for every other tree, at `maxXMLDepth - 16` with the new root as 1: a
  ///     level-0 group is a child of the root).
  /// - Throws: ``KDBXError/invalidCredentials`` for a wrong key; ``KDBXError/damagedContent(reason:)`` when the key
  ///   is right but the content is damaged; ``KDBXError/malformedRecord(offset:reason:)`` for content that does not
  ///   have KeePass 1.x's structure; header errors from ``KDB1Header/init(parsing:options:)``.
  package static func open<P: KDBXPrimitives>(
    bytes: [UInt8], key: CompositeKey, primitives: P, clock: some WallClock, random: inout some RandomNumberGenerator,
    options: LoadOptions = .default
  ) throws(KDBXError) -> KDB1OpenedDatabase {
    var decrypted = try decrypt(bytes: bytes, key: key, primitives: primitives, options: options)
    // The content holds every password in clear: wiped when done (the records, which point into it, end first).
    defer { SecureBytes.wipe(&decrypted.content) }
    let header = decrypted.header
    let result: KDB1Import.Result
    do {
      var records = try KDB1Records(
        content: decrypted.content, groupCount: header.groupCount, entryCount: header.entryCount,
        maxNodeCount: options.maxXMLNodeCount)
      result = try KDB1Import.database(
        &records, maxGroupDepth: options.maxGroupDepth, clock: clock, random: &random)
    }
    return KDB1OpenedDatabase(
      database: result.database, header: header, transformedKey: decrypted.transformedKey.bytes,
      passwordEncoding: decrypted.encoding, metaStreams: result.metaStreams)
  }

  /// Opens a KeePass 1.x file with the standard primitives.
  ///
  /// - Parameters:
  ///   - bytes: the whole `.kdb` file.
  ///   - key: the password and key file (or a transformed key from an earlier open); challenge-response keys do
  ///     not apply to KeePass 1.x files.
  ///   - clock: the time for what the file has no time for, used only when the file records no valid time at all.
  ///   - options: the AES-KDF rounds and content size limits, and the XML depth the saved file must stay within.
  ///   - progress: the key derivation's progress, 0...1 (once per password encoding tried); return `false` to
  ///     cancel.
  public static func open(
    bytes: [UInt8], key: CompositeKey, clock: some WallClock, options: LoadOptions = .default,
    progress: ((Double) -> Bool)? = nil
  ) throws(KDBXError) -> KDB1OpenedDatabase {
    var system = SystemRandomNumberGenerator()
    var random = ChaCha20RandomNumberGenerator(seededFrom: &system)
    return try open(
      bytes: bytes, key: key, primitives: StandardPrimitives(progress: progress), clock: clock, random: &random,
      options: options)
  }

  /// The content after decryption and the key and content checks.
  struct DecryptedContent {
    var header: KDB1Header
    /// The content without the padding.
    var content: [UInt8]
    var transformedKey: SecureBytes
    var encoding: KDB1PasswordEncoding?
  }

  static func decrypt<P: KDBXPrimitives>(
    bytes: [UInt8], key: CompositeKey, primitives: P, options: LoadOptions
  ) throws(KDBXError) -> DecryptedContent {
    let header = try KDB1Header(parsing: bytes, options: options)
    let ciphertextCount = bytes.count - KDB1Header.byteCount
    guard ciphertextCount > 0, ciphertextCount % 16 == 0 else {
      throw .truncated(offset: bytes.count, needed: 16 - ciphertextCount % 16)
    }
    guard ciphertextCount <= options.maxPayloadByteCount else {
      throw .limitExceeded(
        what: "encrypted content bytes", value: UInt64(ciphertextCount), limit: UInt64(options.maxPayloadByteCount))
    }
    // Every record takes at least 6 bytes: a count beyond that is damage, found before the key derivation.
    let records = UInt64(header.groupCount) + UInt64(header.entryCount)
    guard records <= UInt64(ciphertextCount / KDB1Records.minimumRecordByteCount) else {
      throw .malformedHeader(
        field: "Groups/Entries",
        reason:
          "\(header.groupCount) groups and \(header.entryCount) entries cannot fit in \(ciphertextCount) bytes of "
          + "content (the file is truncated or its header damaged)")
    }
    let ciphertext = Array(bytes[KDB1Header.byteCount...])

    var candidates: [(encoding: KDB1PasswordEncoding?, raw: SecureBytes?)] = []
    if key.transformedSecret != nil {
      candidates = [(nil, nil)]
    } else {
      guard let material = key.keePass1 else { throw .invalidCredentials }
      guard !material.hasChallengeResponse else {
        throw .invalidKeyFile(reason: "KeePass 1.x files cannot use a challenge-response key")
      }
      candidates = material.rawKeys().map { ($0.encoding, $0.key) }
      guard !candidates.isEmpty else { throw .invalidCredentials }
    }
    for candidate in candidates {
      let transformed: SecureBytes
      if let cached = key.transformedSecret {
        transformed = cached
      } else if let raw = candidate.raw {
        var input = raw.bytes
        var derived = try primitives.transformKey(input, parameters: header.kdf)
        SecureBytes.wipe(&input)
        transformed = SecureBytes(consuming: &derived)
      } else {
        continue
      }
      var hasher = SHA256()
      hasher.update(header.masterSeed)
      // SAFETY: the hasher reads the key's own bytes inside the closure and keeps no pointer to them.
      transformed.withUnsafeBytes { hasher.update($0) }
      var cipherKey = hasher.finalize().bytes
      let decrypted = try primitives.decryptLeadingBytes(
        ciphertext, byteCount: ciphertext.count, cipher: header.cipher, key: cipherKey, iv: header.encryptionIV)
      SecureBytes.wipe(&cipherKey)
      guard var plaintext = decrypted else { throw .truncated(offset: bytes.count, needed: 16) }
      switch check(plaintext, header: header) {
      case .intact(let contentCount):
        plaintext.removeSubrange(contentCount...)
        return DecryptedContent(
          header: header, content: plaintext, transformedKey: transformed, encoding: candidate.encoding)
      case .damaged(let reason):
        SecureBytes.wipe(&plaintext)
        throw .damagedContent(reason: reason)
      case .wrongKey:
        SecureBytes.wipe(&plaintext)
      }
    }
    throw .invalidCredentials
  }

  enum Verdict: Equatable {
    /// The padding and the content hash are right; the content is this many bytes.
    case intact(contentCount: Int)
    /// The key is right (the decrypted bytes have KeePass 1.x's structure) but the content is damaged.
    case damaged(String)
    case wrongKey
  }

  /// Checks the padding and the content hash of the decrypted bytes, and tells a wrong key from damage when they
  /// fail (see the type's documentation).
  static func check(_ plaintext: [UInt8], header: KDB1Header) -> Verdict {
    guard plaintext.count >= 16, plaintext.count % 16 == 0 else { return .wrongKey }
    // PKCS#7, checked in constant time over the last block.
    let padding = Int(plaintext[plaintext.count - 1])
    var difference: UInt8 = padding >= 1 && padding <= 16 ? 0 : 1
    for index in 0..<16 {
      let inPadding = UInt8(truncatingIfNeeded: (index &- padding) >> (Int.bitWidth - 1))  // 0xFF when index < padding
      difference |= (plaintext[plaintext.count - 1 - index] ^ UInt8(truncatingIfNeeded: padding)) & inPadding
    }
    let paddingIsValid = difference == 0
    let contentCount = plaintext.count - (paddingIsValid ? padding : 0)
    if paddingIsValid, ConstantTime.equals(SHA256.hash(plaintext[0..<contentCount]).bytes, header.contentHash) {
      return .intact(contentCount: contentCount)
    }
    let endsWithRecord =
      paddingIsValid && contentCount >= 6 && plaintext[(contentCount - 6)..<contentCount].elementsEqual(endField)
    let isEmpty = header.groupCount == 0 && header.entryCount == 0
    guard endsWithRecord || (!isEmpty && startsWithRecord(plaintext, groups: header.groupCount > 0)) else {
      return .wrongKey
    }
    return .damaged(
      paddingIsValid
        ? "the SHA-256 content hash does not match (the key is right: the content decrypts to KeePass 1.x records)"
        : "the padding of the last block is invalid (the key is right: the content decrypts to KeePass 1.x records)")
  }

  /// The end field of a record: type `0xFFFF`, size 0.
  static let endField: [UInt8] = [0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00]

  /// Whether `plaintext` starts with a field header that a group record (or an entry record, when there are no
  /// groups) can start with: a known type with the size that type has.
  static func startsWithRecord(_ plaintext: [UInt8], groups: Bool) -> Bool {
    guard plaintext.count >= 6 else { return false }
    let type = UInt16(plaintext[0]) | UInt16(plaintext[1]) << 8
    var size: UInt32 = 0
    for index in 0..<4 { size |= UInt32(plaintext[2 + index]) << (8 * index) }
    guard UInt64(size) <= UInt64(plaintext.count - 6) else { return false }
    switch (groups, type) {
    case (_, 0x0000): return true
    case (_, 0xFFFF): return size == 0
    case (true, 0x0001), (true, 0x0007), (true, 0x0009): return size == 4
    case (true, 0x0002): return true
    case (true, 0x0003...0x0006): return size == 5
    case (true, 0x0008): return size == 2
    case (false, 0x0001): return size == 16
    case (false, 0x0002), (false, 0x0003): return size == 4
    case (false, 0x0004...0x0008), (false, 0x000D), (false, 0x000E): return true
    case (false, 0x0009...0x000C): return size == 5
    default: return false
    }
  }
}

extension OpenedDatabase {
  /// A KeePass 1.x database in the shape of an opened KDBX file, for code that handles both: it keeps the KDBX
  /// 3.1 equivalent of the file's settings (its cipher, AES-KDF seed and rounds, master seed and IV, no
  /// compression) for `SaveSettings(keeping:)`, and `isKeePass1` is `true`. Saving it writes a KDBX file, never a
  /// KeePass 1.x one.
  public init(importing opened: KDB1OpenedDatabase) {
    let source = opened.header
    let header = OuterHeader(
      version: .v3_1, cipher: source.cipher, compression: .none, masterSeed: source.masterSeed,
      encryptionIV: source.encryptionIV, kdf: source.kdf)
    self.init(keePass1: opened.database, header: header, transformedKey: opened.transformedKey)
  }
}

import KDBXCrypto

/// A vault's transformed key (the output of its key derivation) together with what it is valid for, so that an
/// app can reopen and save the vault without the master password and without running the KDF: the way an AutoFill
/// extension, which has no room for a 64 MiB Argon2 run, opens the vault its app unlocked.
///
/// A transformed key opens a file only while the file keeps the KDF parameters it was derived with, seed
/// included (KDBX 4.1 specification, "Key Derivation"; the seed is the KDF parameters' `S` for Argon2, the
/// transform seed for AES-KDF, kept in the outer header of KDBX 3.1 and 4.x files alike). A save through a session
/// opened with this key keeps those parameters (with fresh master seed, IV and inner-stream key as always), so the
/// key stays valid; KeePass 2 and KeePassXC draw a new KDF seed on every save, and then
/// ``KDBXFile/open(bytes:cachedKey:options:)`` throws ``KDBXError/cachedKeyIsStale`` before anything is decrypted:
/// unlock with the password and cache the new key.
///
/// ```swift
/// // In the app, after unlocking with the password:
/// let opened = try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: password))
/// if let cached = opened.cachedKey { try keychain.store(cached.serialized) }  // no second KDF run
/// // In the extension:
/// let key = try CachedVaultKey(serialized: keychain.load())
/// let vault = try KDBXFile.open(bytes: bytes, cachedKey: key)              // .cachedKeyIsStale after a foreign save
/// ```
///
/// ``serialized`` is a versioned byte form with its own checksum, for the Keychain; it holds the key in clear, so
/// keep it where the master password would be kept. The key is held in zeroing storage (`SecureBytes`): the bytes
/// are overwritten when the last copy of this value is released; the arrays ``serialized`` returns are the
/// caller's to wipe.
public struct CachedVaultKey: Sendable {
  /// The KDF parameters, seed included, the key was derived with.
  package let kdf: KDFParameters
  /// Whether the key is for a KDBX 4 file (`true`) or a KDBX 3.1 file. The transformed key itself is the same for
  /// both; a file converted between the two keeps its seed only if it keeps its KDF, and this records which family
  /// of header the seed was read from.
  package let isKDBX4: Bool
  let secret: SecureBytes

  /// The magic and format version at the start of ``serialized``: "KDBXCK" and 1.
  static let magic: [UInt8] = [0x4B, 0x44, 0x42, 0x58, 0x43, 0x4B, 0x01]

  package init(secret: SecureBytes, kdf: KDFParameters, isKDBX4: Bool) {
    self.secret = secret
    self.kdf = kdf
    self.isKDBX4 = isKDBX4
  }

  /// The key to open or write a file with (no KDF run).
  package var compositeKey: CompositeKey { CompositeKey(transformedSecret: secret) }

  /// Whether the key is valid for a file with this header: the same KDF parameters and seed, the same format
  /// family.
  package func isValid(for header: OuterHeader) -> Bool {
    header.kdf == kdf && header.version.isKDBX4 == isKDBX4
  }

  /// Throws ``KDBXError/cachedKeyIsStale`` unless the key is valid for `header`.
  package func check(_ header: OuterHeader) throws(KDBXError) {
    guard isValid(for: header) else { throw .cachedKeyIsStale }
  }

  /// The key as bytes to keep (a Keychain item): the magic `KDBXCK`, format version 1, the format family (3 or 4),
  /// the KDF parameters as a KDBX 4 VariantDictionary with its length (UInt32, little-endian), the 32-byte key, and
  /// the first 8 bytes of the SHA-256 of everything before them.
  public var serialized: [UInt8] {
    let dictionary = kdf.dictionary.serialized()
    var bytes = Self.magic
    // One allocation, so that no outgrown buffer with the key in it is freed unzeroed.
    bytes.reserveCapacity(Self.magic.count + 1 + 4 + dictionary.count + secret.count + 8)
    bytes.append(isKDBX4 ? 4 : 3)
    let length = UInt32(clamping: dictionary.count)
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: length >> UInt32(shift))) }
    bytes += dictionary
    // SAFETY: the key's own storage is read inside the closure only; no pointer escapes (no `.bytes` copy).
    secret.withUnsafeBytes { bytes.append(contentsOf: $0) }
    bytes += SHA256.hash(bytes).bytes.prefix(8)
    return bytes
  }

  /// Reads a key written by ``serialized``.
  ///
  /// - Throws: ``KDBXError/invalidCachedKey(reason:)`` for bytes that are not a cached key of this format (another
  ///   format, a later version, truncated, damaged: the checksum), and the header errors of
  ///   ``KDBXFile/openBlocking(bytes:key:options:progress:)`` for KDF parameters out of `options`' limits.
  public init(serialized bytes: [UInt8], options: LoadOptions = .default) throws(KDBXError) {
    guard bytes.count >= Self.magic.count, bytes.starts(with: Self.magic.dropLast()) else {
      throw .invalidCachedKey(reason: "not a cached vault key (no KDBXCK signature)")
    }
    guard bytes[Self.magic.count - 1] == Self.magic[Self.magic.count - 1] else {
      throw .invalidCachedKey(reason: "cached key format version \(bytes[Self.magic.count - 1]) is not read here")
    }
    let fixed = Self.magic.count + 1 + 4
    guard bytes.count >= fixed + 32 + 8 else { throw .invalidCachedKey(reason: "truncated (\(bytes.count) bytes)") }
    var length = 0
    for index in 0..<4 { length |= Int(bytes[Self.magic.count + 1 + index]) << (8 * index) }
    guard length <= bytes.count - fixed - 32 - 8 else {
      throw .invalidCachedKey(reason: "truncated (the KDF parameters run past the end)")
    }
    let end = fixed + length + 32
    guard bytes.count == end + 8 else { throw .invalidCachedKey(reason: "\(bytes.count - end - 8) bytes too many") }
    guard ConstantTime.equals(Array(SHA256.hash(Array(bytes[..<end])).bytes.prefix(8)), Array(bytes[end...])) else {
      throw .invalidCachedKey(reason: "damaged (checksum mismatch)")
    }
    let family = bytes[Self.magic.count]
    guard family == 3 || family == 4 else { throw .invalidCachedKey(reason: "unknown format family \(family)") }
    let dictionary = try VariantDictionary(parsing: Array(bytes[fixed..<(fixed + length)]))
    var kdf = try KDFParameters(dictionary: dictionary, options: options.withoutMemoryBudget)
    // KDBX 3.1 stores AES-KDF in header fields that carry no UUID: read as the KDBX 3 variant, as the header is.
    if family == 3, case .aesKDF(var aes) = kdf {
      aes.uuidVariant = .aesKDBX3
      kdf = .aesKDF(aes)
    }
    var key = Array(bytes[(fixed + length)..<end])
    self.init(secret: SecureBytes(consuming: &key), kdf: kdf, isKDBX4: family == 4)
  }
}

extension CachedVaultKey: CustomStringConvertible {
  /// The KDF it is valid for; never the key.
  public var description: String { "CachedVaultKey(\(kdf.algorithm), KDBX \(isKDBX4 ? 4 : 3))" }
}

extension LoadOptions {
  /// These options without ``availableMemoryBytes``: for opens with a transformed key, which run no KDF.
  package var withoutMemoryBudget: LoadOptions {
    var options = self
    options.availableMemoryBytes = nil
    return options
  }
}

extension OpenedDatabase {
  /// The key this open derived, with the KDF parameters it is valid for, to cache for later opens without the
  /// KDF (``KDBXFile/open(bytes:cachedKey:options:)``); `nil` for a KeePass 1.x file, and for a KDBX 3.1 file
  /// opened with a challenge-response key (whose master key needs the response beside the transformed key).
  public var cachedKey: CachedVaultKey? {
    guard !isKeePass1, transformedKey.count == 32, !(usedChallengeResponse && !header.version.isKDBX4)
    else { return nil }
    return CachedVaultKey(secret: transformedKey, kdf: header.kdf, isKDBX4: header.version.isKDBX4)
  }
}

extension KDBXFile {
  /// Opens a KDBX 3.1 or 4.x file with a cached transformed key: no key derivation runs, so no KDF memory is
  /// reserved and ``LoadOptions/availableMemoryBytes`` does not apply.
  ///
  /// - Throws: ``KDBXError/cachedKeyIsStale`` when the file's KDF parameters or seed are not the ones the key was
  ///   made for (another app saved the file, or it is another vault), checked before anything is decrypted;
  ///   ``KDBXError/invalidCredentials`` when the seed matches but the key does not open the file; the errors of
  ///   ``openBlocking(bytes:key:options:progress:)`` for a damaged file.
  public static func open(bytes: [UInt8], cachedKey: CachedVaultKey, options: LoadOptions = .default)
    throws(KDBXError) -> OpenedDatabase
  {
    let options = options.withoutMemoryBudget
    let header = try readHeader(bytes: bytes, options: options).header
    try cachedKey.check(header)
    return try openBlocking(bytes: bytes, key: cachedKey.compositeKey, options: options)
  }
}

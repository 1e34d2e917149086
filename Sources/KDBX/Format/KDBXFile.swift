import KDBXCrypto

/// Entry points for whole KDBX files (KDBX 2.x to 4.1): ``open(bytes:key:options:maxConcurrency:progress:)`` and
/// ``save(_:key:settings:maxConcurrency:progress:)`` for apps (the key derivation runs off the caller's actor and
/// stops when the task is cancelled); ``openBlocking(bytes:key:options:progress:)`` and
/// ``saveBlocking(_:key:settings:progress:)`` for tools and Embedded builds, named apart so that `try await
/// KDBXFile.open(...)` always reaches the `async` form; ``open(bytes:cachedKey:options:)`` (no key derivation); and
/// ``readVersion(bytes:)``, ``readKDF(bytes:options:)`` and ``challenge(bytes:options:)``, which read the unencrypted
/// header without a key (for example to show the KDF's cost before asking for the password).
///
/// ```swift
/// let opened = try await KDBXFile.open(bytes: fileBytes, key: CompositeKey(password: password))
/// ```
///
/// The container layers (outer header, hashed or HMAC blocks, inner header, cipher, gzip, database XML) are `package`
/// declarations: an app sees only the ``Database`` model.
public enum KDBXFile {
  /// Reads only the signatures and version of a file, without a key.
  ///
  /// Throws ``KDBXError/notKeePassFile``, ``KDBXError/unsupportedKDB1``, ``KDBXError/unsupportedPreReleaseFormat``,
  /// ``KDBXError/unsupportedVersion(major:minor:)`` or ``KDBXError/truncated(offset:needed:)``.
  public static func readVersion(bytes: [UInt8]) throws(KDBXError) -> KDBXVersion {
    var reader = ByteReader(bytes)
    return try OuterHeader.readVersion(&reader).0
  }

  /// The outer header and what follows it up to the encrypted payload.
  package struct HeaderBlock: Sendable, Equatable {
    /// The parsed header.
    package var header: OuterHeader
    /// KDBX 4: the HMAC-SHA-256 stored after the header's SHA-256, to be checked with the key
    /// (`HMACBlockStream/verifyHeader(_:storedHMAC:authenticator:)`). `nil` for KDBX 3.x.
    package var storedHeaderHMAC: [UInt8]?
    /// The offset of the payload (the encrypted stream) in the file.
    package var payloadOffset: Int
  }

  /// The challenge a challenge-response key (for example a YubiKey in HMAC-SHA1 mode) is given for the file
  /// `bytes`, read from its header without a key, as KeePassXC does it: the KDF seed for KDBX 4.x, the master seed
  /// for KDBX 3.x. Send it to the device and pass the response as
  /// ``CompositeKey/init(password:keyFile:challengeResponse:)``'s `challengeResponse`.
  ///
  /// ```swift
  /// let challenge = try KDBXFile.challenge(bytes: fileBytes)
  /// let key = CompositeKey(password: password, challengeResponse: yubiKey.respond(to: challenge))
  /// ```
  ///
  /// - Throws: the header errors of ``openBlocking(bytes:key:options:progress:)``.
  public static func challenge(bytes: [UInt8], options: LoadOptions = .default) throws(KDBXError) -> [UInt8] {
    try readHeader(bytes: bytes, options: options).header.challenge
  }

  /// The key derivation settings of the file `bytes`, read from its header without a key: for example to show
  /// the KDF's memory and time cost before asking for the password.
  ///
  /// - Throws: the header errors of ``openBlocking(bytes:key:options:progress:)``.
  public static func readKDF(bytes: [UInt8], options: LoadOptions = .default) throws(KDBXError) -> KDFParameters {
    try readHeader(bytes: bytes, options: options).header.kdf
  }

  /// Parses the outer header; for KDBX 4, also checks the SHA-256 that follows it (throwing
  /// ``KDBXError/headerChecksumMismatch``) and returns the stored header HMAC for the key check.
  package static func readHeader(bytes: [UInt8], options: LoadOptions = .default) throws(KDBXError) -> HeaderBlock {
    let header = try OuterHeader(parsing: bytes, options: options)
    var reader = ByteReader(bytes, offset: header.rawBytes.count)
    guard header.version.isKDBX4 else {
      return HeaderBlock(header: header, storedHeaderHMAC: nil, payloadOffset: reader.offset)
    }
    let storedHash = try reader.readBytes(32)
    guard ConstantTime.equals(SHA256.hash(header.rawBytes).bytes, storedHash) else { throw .headerChecksumMismatch }
    let hmac = try reader.readBytes(32)
    return HeaderBlock(header: header, storedHeaderHMAC: hmac, payloadOffset: reader.offset)
  }
}

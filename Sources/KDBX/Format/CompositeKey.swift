import KDBXCrypto

/// The user's key to a database: an optional password, an optional key file and an optional challenge-response
/// result, or a key that was already transformed by the KDF.
///
/// Key derivation (KDBX 4.1 specification, "Key Derivation"; KeePassXC for challenge-response):
/// - each component gives its key bytes: the password gives `SHA-256(UTF-8 password)`, a key file its
///   key bytes;
/// - the composite key is `SHA-256(component ‖ component ‖ …)`; for KDBX 4 with a challenge-response result `r`,
///   `SHA-256(r)` is appended to the components;
/// - the KDF turns the composite key into the transformed key;
/// - KDBX 3.x: master key `SHA-256(masterSeed ‖ [SHA-256(r)] ‖ transformedKey)`;
///   KDBX 4.x: cipher key `SHA-256(masterSeed ‖ transformedKey)`, HMAC base key
///   `SHA-512(masterSeed ‖ transformedKey ‖ 0x01)`.
///
/// An empty password (`""`) is a component (`SHA-256("")`); no password (`nil`) is not: they give different keys.
///
/// KeePass 1.x (`.kdb`) files, which `KDB1File` in `KDBXImport` reads, build their key differently: the password in
/// the bytes KeePass 1.x used (CP-1252, then Latin-1 and UTF-8 as KeePassX wrote them), and
/// `SHA-256(SHA-256(password) ‖ key file key)` for both; the key keeps what that needs, in the same zeroing storage.
///
/// Challenge-response: read the file's challenge without a key (``KDBXFile/challenge(bytes:options:)``), send it
/// to the device (KeePassXC: HMAC-SHA1 with a YubiKey), and pass the response as
/// `challengeResponse`. The raw secrets are not stored: only the component hashes, and ``description`` hides them.
///
/// Memory: the component hashes, the challenge-response result and a transformed key are held in `SecureBytes`,
/// which zeroes them when the last copy of the key is released. The `String` or `[UInt8]` a caller passes in is the
/// caller's; the arrays this type returns (`compositeKey(for:)`, the transformed key, the master keys) are copies
/// the caller should zero with `SecureBytes.wipe(_:)`.
///
/// ```swift
/// let keyFile = try KeyFile(contents: keyFileBytes)  // optional: the file the user picked
/// let key = CompositeKey(password: password, keyFile: keyFile)
/// let opened = try await KDBXFile.open(bytes: fileBytes, key: key)
/// ```
public struct CompositeKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
  enum Storage: Sendable {
    case components([SecureBytes], challengeResponse: SecureBytes?)
    case transformed(SecureBytes)
  }

  let storage: Storage
  /// What a KeePass 1.x file needs, which the KDBX components cannot give back (the password in other encodings,
  /// the raw hash of an XML key file); `nil` for a transformed key.
  package let keePass1: KDB1KeyMaterial?

  /// A key from a password and/or key file, with an optional challenge-response result.
  public init(password: String?, keyFile: KeyFile? = nil, challengeResponse: [UInt8]? = nil) {
    guard let password else {
      self.init(passwordBytes: nil, keyFile: keyFile, challengeResponse: challengeResponse)
      return
    }
    var utf8 = Array(password.utf8)  // the String itself is the caller's; this copy is zeroed
    self.init(passwordBytes: utf8, keyFile: keyFile, challengeResponse: challengeResponse)
    SecureBytes.wipe(&utf8)
  }

  /// A key from password bytes (for callers that keep the password out of `String`), key file and response.
  public init(passwordBytes: [UInt8]?, keyFile: KeyFile? = nil, challengeResponse: [UInt8]? = nil) {
    var components: [SecureBytes] = []
    if let passwordBytes {
      var digest = SHA256.hash(passwordBytes).bytes
      components.append(SecureBytes(consuming: &digest))
    }
    if let keyFile { components.append(SecureBytes(keyFile.keyBytes)) }
    storage = .components(components, challengeResponse: challengeResponse.map { SecureBytes($0) })
    keePass1 = KDB1KeyMaterial(
      passwordBytes: passwordBytes, keyFile: keyFile, hasChallengeResponse: challengeResponse != nil)
  }

  /// A key that is already the KDF's output for the file (for example cached by an app for its AutoFill
  /// extension): opening skips the KDF. Throws unless it is 32 bytes.
  package init(transformedKey: [UInt8]) throws(KDBXError) {
    guard transformedKey.count == 32 else { throw .invalidKeyFile(reason: "a transformed key must be 32 bytes") }
    storage = .transformed(SecureBytes(transformedKey))
    keePass1 = nil
  }

  /// A transformed key held in `secret` (shared, not copied).
  package init(transformedSecret secret: SecureBytes) {
    storage = .transformed(secret)
    keePass1 = nil
  }

  /// Whether the key has a challenge-response component.
  package var hasChallengeResponse: Bool {
    if case .components(_, let response) = storage { return response != nil }
    return false
  }

  /// Whether this key skips the KDF.
  package var isTransformed: Bool {
    if case .transformed = storage { return true }
    return false
  }

  /// Whether the key has no password, key file or challenge-response component at all.
  public var isEmpty: Bool {
    if case .components(let components, let response) = storage { return components.isEmpty && response == nil }
    return false
  }

  /// The KDF input for a file of `version`, or `nil` for a transformed key.
  package func compositeKey(for version: KDBXVersion) -> [UInt8]? {
    guard case .components(let components, let response) = storage else { return nil }
    var hasher = SHA256()
    // SAFETY: the hasher (and SHA256.hash below) reads each SecureBytes' own storage inside its closure only and
    // keeps no pointer; the component and response outlive their closures.
    for component in components { component.withUnsafeBytes { hasher.update($0) } }
    if version.isKDBX4, let response {
      var responseHash = response.withUnsafeBytes { SHA256.hash($0).bytes }
      hasher.update(responseHash)
      SecureBytes.wipe(&responseHash)
    }
    return hasher.finalize().bytes
  }

  /// The already-transformed key, if this key was made with ``init(transformedKey:)``.
  package var transformedKey: [UInt8]? {
    if case .transformed(let key) = storage { return key.bytes }
    return nil
  }

  /// The already-transformed key without a copy, if this key was made with ``init(transformedKey:)``.
  package var transformedSecret: SecureBytes? {
    if case .transformed(let key) = storage { return key }
    return nil
  }

  /// KDBX 3.x: the AES key for the payload, `SHA-256(masterSeed ‖ [SHA-256(response)] ‖ transformedKey)`.
  package func kdbx3MasterKey(masterSeed: [UInt8], transformedKey: [UInt8]) -> [UInt8] {
    kdbx3MasterKey(masterSeed: masterSeed, transformedKey: SecureBytes(transformedKey))
  }

  /// KDBX 4.x: the payload cipher key, `SHA-256(masterSeed ‖ transformedKey)`.
  package static func kdbx4CipherKey(masterSeed: [UInt8], transformedKey: [UInt8]) -> [UInt8] {
    kdbx4CipherKey(masterSeed: masterSeed, transformedKey: SecureBytes(transformedKey))
  }

  /// KDBX 4.x: the input of the HMAC base key, `masterSeed ‖ transformedKey ‖ 0x01`; the base key is its SHA-512
  /// (`SHA512.hash(_:).bytes`).
  package static func kdbx4HMACBaseKeyInput(masterSeed: [UInt8], transformedKey: [UInt8]) -> [UInt8] {
    masterSeed + transformedKey + [0x01]
  }

  // The key schedule over a transformed key held in SecureBytes: KDBXFile open and save use these directly, and the
  // public `[UInt8]` forms above copy the key in and call them.

  /// KDBX 3.x master key, as ``kdbx3MasterKey(masterSeed:transformedKey:)-([UInt8],[UInt8])``.
  func kdbx3MasterKey(masterSeed: [UInt8], transformedKey: SecureBytes) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(masterSeed)
    if case .components(_, let response?) = storage {
      // SAFETY: SHA256.hash reads the response's own bytes inside the closure and returns a copy of the digest.
      var responseHash = response.withUnsafeBytes { SHA256.hash($0).bytes }
      hasher.update(responseHash)
      SecureBytes.wipe(&responseHash)
    }
    // SAFETY: the hasher reads the key's own bytes inside the closure and keeps no pointer to them.
    transformedKey.withUnsafeBytes { hasher.update($0) }
    return hasher.finalize().bytes
  }

  /// KDBX 4.x cipher key, as ``kdbx4CipherKey(masterSeed:transformedKey:)-([UInt8],[UInt8])``.
  static func kdbx4CipherKey(masterSeed: [UInt8], transformedKey: SecureBytes) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(masterSeed)
    // SAFETY: the hasher reads the key's own bytes inside the closure and keeps no pointer to them.
    transformedKey.withUnsafeBytes { hasher.update($0) }
    return hasher.finalize().bytes
  }

  /// KDBX 4.x HMAC base key input, as ``kdbx4HMACBaseKeyInput(masterSeed:transformedKey:)-([UInt8],[UInt8])``.
  static func kdbx4HMACBaseKeyInput(masterSeed: [UInt8], transformedKey: SecureBytes) -> [UInt8] {
    var input = masterSeed
    input.reserveCapacity(masterSeed.count + transformedKey.count + 1)
    // SAFETY: `append(contentsOf:)` copies the key's `count` bytes inside the closure; no pointer escapes.
    transformedKey.withUnsafeBytes { input.append(contentsOf: $0) }
    input.append(0x01)
    return input
  }

  public var description: String { "CompositeKey(<redacted>)" }
  public var debugDescription: String { description }
}

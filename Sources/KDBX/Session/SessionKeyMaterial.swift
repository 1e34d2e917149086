import KDBXCrypto

/// The key material a ``SynchronousVaultSession`` holds while it is unlocked, kept in this one place so that locking can wipe
/// it.
///
/// It holds the user's ``CompositeKey`` (needed to open a version of the file written elsewhere, whose KDF seed
/// differs) and, when allowed, the KDF output for one set of KDF parameters (seed included), so that saves and
/// re-reads of a file with that seed skip the KDF, as KeePassXC does.
///
/// The transformed key is held in `SecureBytes`, the very storage the open derived it into (no copy is made), and
/// the `CompositeKey` keeps its component hashes in `SecureBytes` too; `SecureBytes` zeroes its bytes when the last
/// reference is released. ``wipe()`` (on ``SynchronousVaultSession/lock()`` and when this object is released) drops
/// the session's references, so the bytes are zeroed then, unless someone else still holds the same storage: a
/// `CompositeKey` made from it for an open or save still running (zeroed when that ends), a ``cachedKey`` handed to
/// the app, or a copy of the key the caller kept (which stays usable).
final class SessionKeyMaterial {
  /// The user's key; `nil` once wiped.
  private(set) var compositeKey: CompositeKey?
  /// The KDF output for ``transformedKDF``; `nil` when there is none, and once wiped.
  private(set) var transformedKey: SecureBytes?
  /// The KDF parameters (with seed) ``transformedKey`` was derived with, and the format family it is valid for.
  private(set) var transformedKDF: KDFParameters?
  private var transformedForKDBX4 = false
  private let cachesTransformedKey: Bool
  /// Whether ``wipe()`` ran.
  private(set) var isWiped = false

  init(key: CompositeKey, cachesTransformedKey: Bool) {
    compositeKey = key
    self.cachesTransformedKey = cachesTransformedKey
  }

  /// Key material that is only a cached transformed key: files with its KDF parameters open and save without a
  /// KDF run; anything else needs the password (``KDBXError/cachedKeyIsStale``).
  init(cachedKey: CachedVaultKey) {
    compositeKey = nil
    cachesTransformedKey = true
    transformedKey = cachedKey.secret
    transformedKDF = cachedKey.kdf
    transformedForKDBX4 = cachedKey.isKDBX4
  }

  /// The material for opening `bytes` with `key`: a transformed key (``CompositeKey/init(transformedKey:)``) is
  /// bound to the file's KDF parameters as a ``CachedVaultKey`` (so that saves keep them and work), any other key
  /// is held as it is.
  static func make(key: CompositeKey, opening bytes: [UInt8], options: VaultSessionOptions) -> SessionKeyMaterial {
    if let secret = key.transformedSecret,
      let header = try? KDBXFile.readHeader(bytes: bytes, options: options.load.withoutMemoryBudget).header
    {
      return SessionKeyMaterial(
        cachedKey: CachedVaultKey(secret: secret, kdf: header.kdf, isKDBX4: header.version.isKDBX4))
    }
    return SessionKeyMaterial(key: key, cachesTransformedKey: options.cachesTransformedKey)
  }

  /// The transformed key with the KDF parameters it is valid for, to hand to an app; `nil` when none is cached
  /// (caching is off, or wiped), and for a KDBX 3 file with a challenge-response key.
  var cachedKey: CachedVaultKey? {
    guard let transformedKey, let kdf = transformedKDF, !(hasChallengeResponse && !transformedForKDBX4) else {
      return nil
    }
    return CachedVaultKey(secret: transformedKey, kdf: kdf, isKDBX4: transformedForKDBX4)
  }

  /// The error for a file this material cannot open or write without a KDF run it has no input for.
  private var missingKeyError: KDBXError { isWiped ? .invalidCredentials : .cachedKeyIsStale }

  deinit { wipe() }

  /// Remembers the KDF output of an open or a save (the storage itself, not a copy), when caching is on.
  func remember(_ derived: SecureBytes, kdf: KDFParameters, version: KDBXVersion) {
    guard cachesTransformedKey, !isWiped, derived.count == 32 else { return }
    transformedKey = derived
    transformedKDF = kdf
    transformedForKDBX4 = version.isKDBX4
  }

  /// Whether the key has a challenge-response component. For KDBX 4 the response answers the KDF seed
  /// (KeePassXC sends the seed as the challenge), so the seed must not change without a new response.
  var hasChallengeResponse: Bool { compositeKey?.hasChallengeResponse ?? false }

  /// The key to open a file with these KDF parameters: the cached transformed key when it is valid for them (no
  /// KDF run), else the composite key. Throws ``KDBXError/invalidCredentials`` once wiped.
  func key(for kdf: KDFParameters, version: KDBXVersion) throws(KDBXError) -> CompositeKey {
    guard !isWiped else { throw .invalidCredentials }
    if let cached = validCachedKey(for: kdf, version: version) { return cached }
    guard let compositeKey else { throw missingKeyError }
    return compositeKey
  }

  /// The cached transformed key as a key, when it is valid for these KDF parameters.
  private func validCachedKey(for kdf: KDFParameters, version: KDBXVersion) -> CompositeKey? {
    guard let transformedKey, cachedKeyIsValid(for: kdf, version: version) else { return nil }
    return CompositeKey(transformedSecret: transformedKey)
  }

  /// A KDBX 3 master key needs the challenge-response apart from the transformed key, and a KDBX 4 composite key
  /// includes it: with a response, the cached key is only valid for KDBX 4.
  private func cachedKeyIsValid(for kdf: KDFParameters, version: KDBXVersion) -> Bool {
    guard transformedKDF == kdf else { return false }
    // A key made from a cached key alone is valid for its own format family only.
    if compositeKey == nil && transformedForKDBX4 != version.isKDBX4 { return false }
    return !hasChallengeResponse || (transformedForKDBX4 && version.isKDBX4)
  }

  /// The key and KDF parameters to write a file of `version` whose settings ask for `kdf`.
  ///
  /// - the cached transformed key when it is valid for `kdf` (the file keeps its KDF seed, no KDF run);
  /// - else, when caching, a KDF run for `kdf` with a fresh seed (kept as is for a challenge-response key, whose
  ///   response answers that seed), cached for the next saves;
  /// - else the composite key (``KDBXFile/saveBlocking(_:key:settings:progress:)`` draws a fresh seed and runs the
  ///   KDF).
  func keyForWriting(
    kdf: KDFParameters, version: KDBXVersion, primitives: StandardPrimitives
  ) throws(KDBXError) -> (key: CompositeKey, kdf: KDFParameters) {
    switch try writePlan(kdf: kdf, version: version) {
    case .ready(let key, let kdf):
      return (key, kdf)
    case .derive(let input, let target):
      var derived = try primitives.transformKey(input, parameters: target)
      return (finishDerivation(&derived, kdf: target, version: version), target)
    }
  }

  /// What a write needs: a key ready to use, or a KDF run first (done by the caller, synchronously or not).
  enum WritePlan {
    /// Write with `key` and `kdf` (a cached transformed key, or the composite key whose save draws a seed).
    case ready(key: CompositeKey, kdf: KDFParameters)
    /// Run the KDF `kdf` on `input` (the composite key's bytes), then ``finishDerivation(_:kdf:version:)``.
    case derive(input: [UInt8], kdf: KDFParameters)
  }

  /// The first half of ``keyForWriting(kdf:version:primitives:)``: everything but the KDF run.
  func writePlan(kdf: KDFParameters, version: KDBXVersion) throws(KDBXError) -> WritePlan {
    guard !isWiped else { throw .invalidCredentials }
    if let cached = validCachedKey(for: kdf, version: version) { return .ready(key: cached, kdf: kdf) }
    guard let compositeKey else { throw missingKeyError }
    let response = hasChallengeResponse
    guard (cachesTransformedKey || response) && (version.isKDBX4 || !response) else {
      return .ready(key: compositeKey, kdf: kdf)
    }
    guard let input = compositeKey.compositeKey(for: version) else { throw .invalidCredentials }
    var random = SystemRandomNumberGenerator()
    return .derive(input: input, kdf: response ? kdf : KDBXFile.salted(kdf, &random))
  }

  /// The second half: the key to write with from the KDF output `derived` (moved into zeroing storage, `derived`
  /// is zeroed; cached when allowed).
  func finishDerivation(_ derived: inout [UInt8], kdf: KDFParameters, version: KDBXVersion) -> CompositeKey {
    let secret = SecureBytes(consuming: &derived)
    remember(secret, kdf: kdf, version: version)
    return CompositeKey(transformedSecret: secret)
  }

  /// Drops the transformed key and the composite key (their storage is zeroed as it is released: see the type's
  /// note), and refuses every later use.
  func wipe() {
    transformedKey = nil
    transformedKDF = nil
    compositeKey = nil
    isWiped = true
  }
}

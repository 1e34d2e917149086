import KDBXCrypto

#if !$Embedded
  extension KDBXFile {
    /// Opens a KDBX file as ``openBlocking(bytes:key:options:progress:)`` does, without blocking the caller's
    /// actor or a thread of the cooperative pool while the key derivation runs (see
    /// `StandardPrimitives/transformKey(_:parameters:progress:)`). The blocking form has its own name, so
    /// `try await KDBXFile.open(...)` reaches this one wherever it is written, top-level code included.
    ///
    /// ```swift
    /// let (progress, reporter) = AsyncStream.makeStream(of: Double.self, bufferingPolicy: .bufferingNewest(1))
    /// Task { @MainActor in for await fraction in progress { model.unlockProgress = fraction } }  // in order
    /// let opened = try await KDBXFile.open(bytes: bytes, key: key) { fraction in reporter.yield(fraction) }
    /// reporter.finish()
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - key: the composite key (password, key file, challenge-response) or an already-transformed key.
    ///   - options: resource limits applied before anything is allocated or run (KDF memory, rounds, sizes, depth).
    ///   - maxConcurrency: Argon2 lanes run at once; `nil` runs as many as the file asks for (pass the number of
    ///     cores to use at most that many).
    ///   - progress: the key derivation's progress, 0...1, after every Argon2 slice or AES-KDF step, called from
    ///     the task that derives the key.
    /// - Throws: ``KDBXError/cancelled`` when the calling task is cancelled (checked before every Argon2 slice and
    ///   every 65,536 AES-KDF rounds, and before decryption); the errors of
    ///   ``openBlocking(bytes:key:options:progress:)``.
    public static func open(
      bytes: [UInt8], key: CompositeKey, options: LoadOptions = .default, maxConcurrency: Int? = nil,
      progress: (@Sendable (Double) -> Void)? = nil
    ) async throws(KDBXError) -> OpenedDatabase {
      let header = try readHeader(bytes: bytes, options: key.isTransformed ? options.withoutMemoryBudget : options)
        .header
      var primitives = StandardPrimitives()
      primitives.argon2MemoryLimitBytes = Int(clamping: options.kdfMemoryCapBytes)
      primitives.argon2MaxConcurrency = maxConcurrency
      try await derive(key, kdf: header.kdf, version: header.version, into: &primitives, progress)
      defer { wipe(&primitives) }
      if Task.isCancelled { throw .cancelled }
      var system = SystemRandomNumberGenerator()
      var random = ChaCha20RandomNumberGenerator(seededFrom: &system)
      return try open(bytes: bytes, key: key, primitives: primitives, random: &random, options: options)
    }

    /// Writes `database` as ``saveBlocking(_:key:settings:progress:)`` does (fresh seeds, IVs and salts from the
    /// system's secure random number generator), without blocking the caller's actor while the key derivation
    /// runs.
    ///
    /// ```swift
    /// let bytes = try await KDBXFile.save(database, key: key, settings: SaveSettings(keeping: opened))
    /// ```
    /// - Throws: ``KDBXError/cancelled`` when the calling task is cancelled before the file is complete.
    public static func save(
      _ database: Database, key: CompositeKey, settings: SaveSettings, maxConcurrency: Int? = nil,
      progress: (@Sendable (Double) -> Void)? = nil
    ) async throws(KDBXError) -> [UInt8] {
      var random = SystemRandomNumberGenerator()
      var salted = settings
      if !key.isTransformed {
        switch salted.kdf {
        case .aesKDF(var aes):
          aes.seed = randomBytes(32, &random)
          salted.kdf = .aesKDF(aes)
        case .argon2(var argon):
          argon.salt = randomBytes(32, &random)
          salted.kdf = .argon2(argon)
        }
      }
      let version = VersionRequirements.effectiveVersion(for: database, settings: salted)
      var primitives = StandardPrimitives()
      primitives.argon2MaxConcurrency = maxConcurrency
      try await derive(key, kdf: salted.kdf, version: version, into: &primitives, progress)
      defer { wipe(&primitives) }
      if Task.isCancelled { throw .cancelled }
      return try write(
        database, key: key, settings: salted, primitives: primitives, random: &random, saltsKDF: false
      ).bytes
    }

    /// Runs the KDF for `key` asynchronously and hands its output to `primitives`, whose synchronous
    /// `transformKey` then returns it (nothing to do for a key that is already transformed).
    private static func derive(
      _ key: CompositeKey, kdf: KDFParameters, version: KDBXVersion, into primitives: inout StandardPrimitives,
      _ progress: (@Sendable (Double) -> Void)?
    ) async throws(KDBXError) {
      guard !key.isTransformed, let composite = key.compositeKey(for: version) else { return }
      let output = try await primitives.transformKey(composite, parameters: kdf, progress: progress)
      primitives.derivedKey = (composite, kdf, output)
    }

    /// Zeroes the derivation handed to `primitives`.
    private static func wipe(_ primitives: inout StandardPrimitives) {
      guard var derived = primitives.derivedKey else { return }
      primitives.derivedKey = nil
      SecureBytes.wipe(&derived.input)
      SecureBytes.wipe(&derived.output)
    }
  }
#endif

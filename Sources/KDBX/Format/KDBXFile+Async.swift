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
      let derived = try await derive(key, kdf: header.kdf, version: header.version, primitives, progress)
      if Task.isCancelled { throw .cancelled }
      var system = SystemRandomNumberGenerator()
      var random = ChaCha20RandomNumberGenerator(seededFrom: &system)
      return try open(
        bytes: bytes, key: key, derived: derived, primitives: primitives, random: &random, options: options)
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
      var written = settings
      if !key.isTransformed { written.kdf = salted(settings.kdf, &random) }
      let version = VersionRequirements.effectiveVersion(for: database, settings: written)
      var primitives = StandardPrimitives()
      primitives.argon2MaxConcurrency = maxConcurrency
      let derived = try await derive(key, kdf: written.kdf, version: version, primitives, progress)
      if Task.isCancelled { throw .cancelled }
      return try write(
        database, key: key, settings: written, primitives: primitives, random: &random, derived: derived
      ).bytes
    }

    /// Runs the KDF for `key` asynchronously and returns its output, in zeroing storage, to hand to the
    /// synchronous open or write (`nil` for a key that is already transformed: they use it as it is).
    private static func derive(
      _ key: CompositeKey, kdf: KDFParameters, version: KDBXVersion, _ primitives: StandardPrimitives,
      _ progress: (@Sendable (Double) -> Void)?
    ) async throws(KDBXError) -> SecureBytes? {
      guard !key.isTransformed else { return nil }
      guard var composite = key.compositeKey(for: version) else { throw .invalidCredentials }
      defer { SecureBytes.wipe(&composite) }
      var output = try await primitives.transformKey(composite, parameters: kdf, progress: progress)
      return SecureBytes(consuming: &output)
    }
  }
#endif

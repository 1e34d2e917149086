import KDBXCrypto

extension KDBXFile {
  /// Opens a KDBX 2.x, 3.x, 4.0 or 4.1 file with the standard primitives (KDBXCrypto, KDBXCompression, KDBXXML),
  /// blocking the calling thread while the key derivation runs. KDBX 2.x and 3.0 files are saved again as 3.1.
  ///
  /// For tools, tests and Embedded builds. An app calls the `async` form,
  /// ``open(bytes:key:options:maxConcurrency:progress:)``, which keeps the caller's actor free and is the only
  /// `open(bytes:key:)`, so `try await KDBXFile.open(...)` never picks this one, in an `async` function or in
  /// top-level code.
  ///
  /// ```swift
  /// let opened = try KDBXFile.openBlocking(bytes: fileBytes, key: CompositeKey(password: "demo"))
  /// ```
  ///
  /// - Parameters:
  ///   - bytes: the whole file.
  ///   - key: the composite key (password, key file, challenge-response) or an already-transformed key.
  ///   - options: resource limits applied before anything is allocated or run (KDF memory, rounds, sizes, depth).
  ///   - progress: the key derivation's progress, 0...1; return `false` to cancel
  ///     (the open then throws ``KDBXError/cancelled``).
  /// - Throws: ``KDBXError/invalidCredentials`` for a wrong key; other ``KDBXError`` cases name the damaged part.
  public static func openBlocking(
    bytes: [UInt8], key: CompositeKey, options: LoadOptions = .default, progress: ((Double) -> Bool)? = nil
  ) throws(KDBXError) -> OpenedDatabase {
    var primitives = StandardPrimitives(progress: progress)
    primitives.argon2MemoryLimitBytes = Int(clamping: options.kdfMemoryCapBytes)
    // The pads of protected values: one system call seeds a ChaCha20 generator instead of one per value.
    var system = SystemRandomNumberGenerator()
    var random = ChaCha20RandomNumberGenerator(seededFrom: &system)
    return try open(bytes: bytes, key: key, primitives: primitives, random: &random, options: options)
  }

  /// Writes `database` as a KDBX file with the standard primitives and fresh seeds, IVs and salts from the
  /// system's secure random number generator, blocking the calling thread while the key derivation runs.
  ///
  /// For tools, tests and Embedded builds; an app calls the `async` form,
  /// ``save(_:key:settings:maxConcurrency:progress:)``.
  public static func saveBlocking(
    _ database: Database, key: CompositeKey, settings: SaveSettings, progress: ((Double) -> Bool)? = nil
  ) throws(KDBXError) -> [UInt8] {
    var random = SystemRandomNumberGenerator()
    return try save(
      database, key: key, settings: settings, primitives: StandardPrimitives(progress: progress), random: &random)
  }
}

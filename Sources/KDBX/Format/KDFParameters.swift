/// The key derivation settings of a file: AES-KDF (KDBX 3.1 header fields 5 and 6, or a KDBX 4 VariantDictionary)
/// or Argon2 (KDBX 4 only) (KDBX 4.1 specification, "Key Derivation").
///
/// Read from the header before asking for the password, to show what unlocking will cost:
///
/// ```swift
/// switch try KDBXFile.readKDF(bytes: fileBytes) {
/// case .argon2(let argon2): show("Key derivation", "Argon2, \(argon2.memoryBytes >> 20) MiB")
/// case .aesKDF(let aes): show("Key derivation", "AES-KDF, \(aes.rounds) rounds")
/// }
/// ```
public enum KDFParameters: Sendable, Equatable {
  case aesKDF(AESKDFParameters)
  case argon2(Argon2KDFParameters)

  /// The KDF this value selects.
  package var algorithm: KDFAlgorithm {
    switch self {
    case .aesKDF(let parameters): return parameters.uuidVariant
    case .argon2(let parameters): return parameters.variant == .d ? .argon2d : .argon2id
    }
  }

  /// The KDF's seed or salt: the challenge KeePassXC sends to a challenge-response key for KDBX 4 files.
  public var seed: [UInt8] {
    switch self {
    case .aesKDF(let parameters): return parameters.seed
    case .argon2(let parameters): return parameters.salt
    }
  }

  /// Reads KDBX 4 KDF parameters and checks them against `options`.
  package init(dictionary: VariantDictionary, options: LoadOptions = .default) throws(KDBXError) {
    let field = "KdfParameters"
    guard case .byteArray(let uuidBytes)? = dictionary[KDFParameterKey.uuid], let uuid = KDBXUUID(bytes: uuidBytes)
    else { throw .malformedHeader(field: field, reason: "missing or malformed $UUID") }
    guard let algorithm = KDFAlgorithm(uuid: uuid) else { throw .unsupportedKDF(uuid: uuid.description) }
    func bytes(_ key: String) throws(KDBXError) -> [UInt8] {
      guard case .byteArray(let value)? = dictionary[key] else {
        throw .malformedHeader(field: field, reason: "missing or mistyped \(key)")
      }
      return value
    }
    func optionalBytes(_ key: String) throws(KDBXError) -> [UInt8]? {
      guard let value = dictionary[key] else { return nil }
      guard case .byteArray(let data) = value else { throw .malformedHeader(field: field, reason: "mistyped \(key)") }
      return data
    }
    func uint64(_ key: String) throws(KDBXError) -> UInt64 {
      guard case .uint64(let value)? = dictionary[key] else {
        throw .malformedHeader(field: field, reason: "missing or mistyped \(key)")
      }
      return value
    }
    func uint32(_ key: String) throws(KDBXError) -> UInt32 {
      guard case .uint32(let value)? = dictionary[key] else {
        throw .malformedHeader(field: field, reason: "missing or mistyped \(key)")
      }
      return value
    }
    switch algorithm {
    case .aesKDBX3, .aesKDBX4:
      let parameters = AESKDFParameters(
        rounds: try uint64(KDFParameterKey.aesRounds), seed: try bytes(KDFParameterKey.aesSeed), uuidVariant: algorithm)
      try parameters.validate(options: options, field: field)
      self = .aesKDF(parameters)
    case .argon2d, .argon2id:
      let parameters = Argon2KDFParameters(
        variant: algorithm == .argon2d ? .d : .id, iterations: try uint64(KDFParameterKey.argon2Iterations),
        memoryBytes: try uint64(KDFParameterKey.argon2Memory),
        parallelism: try uint32(KDFParameterKey.argon2Parallelism),
        salt: try bytes(KDFParameterKey.argon2Salt), version: try uint32(KDFParameterKey.argon2Version),
        secretKey: try optionalBytes(KDFParameterKey.argon2SecretKey),
        associatedData: try optionalBytes(KDFParameterKey.argon2AssociatedData))
      try parameters.validate(options: options, field: field)
      self = .argon2(parameters)
    }
  }

  /// The KDBX 4 VariantDictionary form, in the key order KeePass writes. AES-KDF is always written under the
  /// KeePass 2 UUID (`KDFAlgorithm/aesKDBX3`), which every reader knows, as KeePassXC does "for compatibility with
  /// other applications"; KeePass 2.47 and pykeepass refuse the alias `KDFAlgorithm/aesKDBX4`.
  package var dictionary: VariantDictionary {
    var dictionary = VariantDictionary()
    switch self {
    case .aesKDF(let parameters):
      dictionary[KDFParameterKey.uuid] = .byteArray(KDFAlgorithm.aesKDBX3.uuid.bytes)
      dictionary[KDFParameterKey.aesRounds] = .uint64(parameters.rounds)
      dictionary[KDFParameterKey.aesSeed] = .byteArray(parameters.seed)
    case .argon2(let parameters):
      dictionary[KDFParameterKey.uuid] = .byteArray(algorithm.uuid.bytes)
      dictionary[KDFParameterKey.argon2Salt] = .byteArray(parameters.salt)
      dictionary[KDFParameterKey.argon2Parallelism] = .uint32(parameters.parallelism)
      dictionary[KDFParameterKey.argon2Memory] = .uint64(parameters.memoryBytes)
      dictionary[KDFParameterKey.argon2Iterations] = .uint64(parameters.iterations)
      dictionary[KDFParameterKey.argon2Version] = .uint32(parameters.version)
      if let secret = parameters.secretKey { dictionary[KDFParameterKey.argon2SecretKey] = .byteArray(secret) }
      if let data = parameters.associatedData { dictionary[KDFParameterKey.argon2AssociatedData] = .byteArray(data) }
    }
    return dictionary
  }
}

/// AES-KDF settings: `rounds` AES-256-ECB encryptions of the two key halves under `seed`, then SHA-256.
///
/// ```swift
/// var settings = SaveSettings(keeping: opened)
/// let seed = [UInt8](repeating: 0, count: 32)  // a save draws a fresh seed
/// settings.kdf = .aesKDF(AESKDFParameters(rounds: 6_000_000, seed: seed))
/// ```
public struct AESKDFParameters: Sendable, Equatable {
  /// The number of rounds.
  public var rounds: UInt64
  /// The 32-byte AES key (transform seed).
  public var seed: [UInt8]
  /// Which of the two AES-KDF UUIDs the file used (`KDFAlgorithm/aesKDBX3` or `KDFAlgorithm/aesKDBX4`), as read.
  /// Saves write `KDFAlgorithm/aesKDBX3` whichever it is (see ``KDFParameters/dictionary``).
  package var uuidVariant: KDFAlgorithm

  /// AES-KDF with `rounds` rounds under the 32-byte `seed` (a save draws a fresh seed).
  public init(rounds: UInt64, seed: [UInt8]) {
    self.init(rounds: rounds, seed: seed, uuidVariant: .aesKDBX3)
  }

  /// AES-KDF as read, with the UUID the file used.
  package init(rounds: UInt64, seed: [UInt8], uuidVariant: KDFAlgorithm) {
    self.rounds = rounds
    self.seed = seed
    self.uuidVariant = uuidVariant
  }

  func validate(options: LoadOptions, field: String) throws(KDBXError) {
    guard seed.count == FormatConstants.transformSeedByteCount else {
      throw .malformedHeader(field: field, reason: "AES-KDF seed must be 32 bytes, got \(seed.count)")
    }
    guard rounds <= options.maxAESKDFRounds else {
      throw .limitExceeded(what: "AES-KDF rounds", value: rounds, limit: options.maxAESKDFRounds)
    }
  }
}

/// Argon2 settings as KDBX 4 stores them (RFC 9106 §3.1 names: t = iterations, m = memory, p = parallelism,
/// S = salt, K = secret, X = associated data).
///
/// ```swift
/// var settings = SaveSettings(keeping: opened)
/// let salt = [UInt8](repeating: 0, count: 32)  // a save draws a fresh salt
/// let argon2 = Argon2KDFParameters(variant: .id, iterations: 10, memoryBytes: 64 << 20, parallelism: 2, salt: salt)
/// settings.kdf = .argon2(argon2)
/// ```
public struct Argon2KDFParameters: Sendable, Equatable {
  /// Argon2d or Argon2id.
  ///
  /// ```swift
  /// var settings = SaveSettings(keeping: opened)
  /// if case .argon2(var argon2) = settings.kdf, argon2.variant == .d {
  ///   argon2.variant = .id  // RFC 9106's recommended variant
  ///   settings.kdf = .argon2(argon2)
  /// }
  /// ```
  public enum Variant: Sendable, Equatable {
    case d
    case id
  }

  public var variant: Variant
  /// Passes over memory (t), at least 1.
  public var iterations: UInt64
  /// Memory in bytes (KDBX stores bytes; Argon2 takes KiB = bytes / 1024), at least 8 KiB per lane.
  public var memoryBytes: UInt64
  /// Lanes (p), at least 1.
  public var parallelism: UInt32
  /// The salt (S), at least 8 bytes.
  public var salt: [UInt8]
  /// The Argon2 version: 0x10 or 0x13.
  package var version: UInt32
  /// The optional secret key (K).
  package var secretKey: [UInt8]?
  /// The optional associated data (X).
  package var associatedData: [UInt8]?

  /// Argon2 (version 0x13) with the given costs and `salt` (a save draws a fresh salt).
  public init(variant: Variant, iterations: UInt64, memoryBytes: UInt64, parallelism: UInt32, salt: [UInt8]) {
    self.init(
      variant: variant, iterations: iterations, memoryBytes: memoryBytes, parallelism: parallelism, salt: salt,
      version: 0x13, secretKey: nil, associatedData: nil)
  }

  /// Argon2 as read, with the version and the optional secret key and associated data.
  package init(
    variant: Variant, iterations: UInt64, memoryBytes: UInt64, parallelism: UInt32, salt: [UInt8],
    version: UInt32, secretKey: [UInt8]? = nil, associatedData: [UInt8]? = nil
  ) {
    self.variant = variant
    self.iterations = iterations
    self.memoryBytes = memoryBytes
    self.parallelism = parallelism
    self.salt = salt
    self.version = version
    self.secretKey = secretKey
    self.associatedData = associatedData
  }

  /// The memory in KiB, as Argon2 takes it.
  package var memoryKiB: UInt64 { memoryBytes / 1_024 }

  func validate(options: LoadOptions, field: String) throws(KDBXError) {
    guard version == 0x10 || version == 0x13 else {
      throw .malformedHeader(field: field, reason: "Argon2 version must be 0x10 or 0x13, got \(version)")
    }
    guard salt.count >= 8 else { throw .malformedHeader(field: field, reason: "Argon2 salt shorter than 8 bytes") }
    guard iterations >= 1 else { throw .malformedHeader(field: field, reason: "Argon2 iterations must be at least 1") }
    guard parallelism >= 1 else {
      throw .malformedHeader(field: field, reason: "Argon2 parallelism must be at least 1")
    }
    guard memoryKiB >= 8 * UInt64(parallelism) else {
      throw .malformedHeader(field: field, reason: "Argon2 memory must be at least 8 KiB per lane")
    }
    guard memoryBytes <= options.maxKDFMemoryBytes else {
      throw .limitExceeded(what: "Argon2 memory bytes", value: memoryBytes, limit: options.maxKDFMemoryBytes)
    }
    guard iterations <= options.maxArgon2Iterations else {
      throw .limitExceeded(what: "Argon2 iterations", value: iterations, limit: options.maxArgon2Iterations)
    }
    guard parallelism <= options.maxArgon2Parallelism else {
      throw .limitExceeded(
        what: "Argon2 parallelism", value: UInt64(parallelism), limit: UInt64(clamping: options.maxArgon2Parallelism))
    }
    guard workBytes <= options.maxArgon2WorkBytes else {
      throw .limitExceeded(
        what: "Argon2 work (memory bytes x iterations)", value: workBytes, limit: options.maxArgon2WorkBytes)
    }
    if let available = options.availableMemoryBytes, memoryBytes > available {
      throw .insufficientMemory(requiredBytes: memoryBytes, availableBytes: available)
    }
  }

  /// The work of a derivation: memory in bytes times iterations (saturating at `UInt64.max`), which
  /// `LoadOptions/maxArgon2WorkBytes` caps. Every pass fills every block once, so the time grows with it.
  package var workBytes: UInt64 {
    let (product, overflow) = memoryBytes.multipliedReportingOverflow(by: iterations)
    return overflow ? .max : product
  }
}

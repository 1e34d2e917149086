import KDBXCrypto

extension StandardPrimitives {
  package func transformKey(_ compositeKey: [UInt8], parameters: KDFParameters) throws(KDBXError) -> [UInt8] {
    do throws(CryptoError) {
      let run = try kdfRun(parameters)
      defer { run.release() }
      let report = progress
      switch run.algorithm {
      case .aesKDF(let seed, let rounds):
        return try AESKDF.transform(key: compositeKey, seed: seed, rounds: rounds) { done, total in
          guard let report, total > 0 else { return true }
          return report(Double(done) / Double(total))
        }
      case .argon2(let argon, let salt):
        let handler = Self.argon2Progress(report)
        // SAFETY: `run.memory` is the provider's buffer, valid until `run.release()` (deferred above).
        guard let memory = run.memory else {
          return try Argon2.deriveKey(
            password: compositeKey, salt: salt, parameters: argon, memoryLimitBytes: argon2MemoryLimitBytes,
            maxConcurrency: run.workers, progress: handler)
        }
        return try Argon2.deriveKey(
          password: compositeKey, salt: salt, parameters: argon, memory: memory, maxConcurrency: run.workers,
          prefault: run.provider?.prefault, progress: handler)
      }
    } catch {
      throw Self.kdfError(error)
    }
  }

  /// A key derivation as a file's KDF parameters ask for it, resolved in one place for the synchronous
  /// ``transformKey(_:parameters:)`` and the `async` `transformKey(_:parameters:progress:)`, which differ only in
  /// how they run it.
  struct KDFRun {
    enum Algorithm {
      /// AES-KDF: `rounds` AES-256 encryptions of each half of the key under `seed`.
      case aesKDF(seed: [UInt8], rounds: UInt64)
      /// Argon2 with a 32-byte tag (``StandardPrimitives/argon2Parameters(_:)``) and the file's salt.
      case argon2(Argon2.Parameters, salt: [UInt8])
    }
    var algorithm: Algorithm
    /// Argon2 lanes run at once: ``StandardPrimitives/argon2MaxConcurrency``, else the file's parallelism.
    var workers = 1
    /// Argon2's block memory from ``StandardPrimitives/argon2BlockMemory``, with the provider it goes back to;
    /// `nil` lets Argon2 allocate it within ``StandardPrimitives/argon2MemoryLimitBytes``.
    // SAFETY: the buffer the provider's `allocate` returned, handed back once by `release()` after the run.
    var memory: UnsafeMutableRawBufferPointer? = nil
    var provider: BlockMemoryProvider? = nil

    /// Gives ``memory`` back to its provider; call once, after the run.
    func release() {
      if let memory, let provider { provider.release(memory) }
    }
  }

  /// The run for `parameters`: the parameter mapping, the worker count and, with ``argon2BlockMemory``, the block
  /// memory, allocated only once the run is known to fit ``argon2MemoryLimitBytes``.
  func kdfRun(_ parameters: KDFParameters) throws(CryptoError) -> KDFRun {
    switch parameters {
    case .aesKDF(let aes):
      return KDFRun(algorithm: .aesKDF(seed: aes.seed, rounds: aes.rounds))
    case .argon2(let argon):
      let argonParameters = try Self.argon2Parameters(argon)
      var run = KDFRun(algorithm: .argon2(argonParameters, salt: argon.salt))
      run.workers = max(argon2MaxConcurrency ?? argonParameters.lanes, 1)
      guard let provider = argon2BlockMemory else { return run }
      let byteCount = Argon2.estimate(parameters: argonParameters).memoryByteCount
      guard byteCount <= argon2MemoryLimitBytes else {
        throw CryptoError.memoryLimitExceeded(requiredBytes: byteCount, limitBytes: argon2MemoryLimitBytes)
      }
      guard let memory = provider.allocate(byteCount) else {
        throw CryptoError.memoryUnavailable(requiredBytes: byteCount)
      }
      run.memory = memory
      run.provider = provider
      return run
    }
  }

  /// Argon2's progress handler for a fraction handler (after each slice; `false` cancels).
  static func argon2Progress(_ report: ((Double) -> Bool)?) -> Argon2.ProgressHandler? {
    report.map { report in
      { (step: Argon2.Progress) -> Bool in report(Double(step.completedSlices) / Double(max(step.totalSlices, 1))) }
    }
  }

  /// The error of a key derivation that failed: memory the system refused, a cancellation, or the KDF's error.
  static func kdfError(_ error: CryptoError) -> KDBXError {
    switch error {
    case .memoryUnavailable(let required):
      return .insufficientMemory(requiredBytes: UInt64(clamping: required), availableBytes: nil)
    case .cancelled: return .cancelled
    default: return .crypto(error)
    }
  }

  /// The Argon2 parameters of a KDBX 4 KDF dictionary (for ``kdfRun(_:)``): a 32-byte tag (the transformed key),
  /// variant d or id, version 0x10 or 0x13.
  static func argon2Parameters(_ argon: Argon2KDFParameters) throws(CryptoError) -> Argon2.Parameters {
    guard argon.memoryBytes / 1024 <= UInt64(Int32.max), argon.iterations <= UInt64(UInt32.max) else {
      throw CryptoError.invalidParameter(name: "m", reason: "Argon2 parameters out of range")
    }
    return try Argon2.Parameters(
      variant: argon.variant == .d ? .d : .id, version: argon.version == 0x10 ? .v0x10 : .v0x13,
      iterations: Int(argon.iterations), memoryKiB: Int(argon.memoryBytes / 1024), lanes: Int(argon.parallelism),
      outputLength: 32, secret: argon.secretKey ?? [], associatedData: argon.associatedData ?? [])
  }
}

import KDBXCrypto

#if !$Embedded
  extension StandardPrimitives {
    /// The key derivation of ``transformKey(_:parameters:)``, as an `async` function that never blocks a thread
    /// of the cooperative pool: Argon2's lanes are filled by this task and helper tasks, and this task suspends
    /// until every lane of a slice has finished (RFC 9106 §3.4's sync point); AES-KDF's two halves run as a child
    /// task and this task, in steps of 65,536 rounds. It runs in parallel on every system (without
    /// `Synchronization`, Argon2's helpers are the child tasks of a task group per slice).
    ///
    /// Task cancellation is checked before every Argon2 slice and every AES-KDF step: the derivation then stops,
    /// its memory is zeroed and released, and ``KDBXError/cancelled`` is thrown. `progress` receives the fraction
    /// done (0...1) after each slice or step; ``progress`` (the synchronous handler) is not used here.
    package func transformKey(
      _ compositeKey: [UInt8], parameters: KDFParameters, progress: (@Sendable (Double) -> Void)?
    ) async throws(KDBXError) -> [UInt8] {
      do throws(CryptoError) {
        if Task.isCancelled { throw CryptoError.cancelled }
        switch parameters {
        case .aesKDF(let aes):
          return try await AESKDF.transformConcurrently(key: compositeKey, seed: aes.seed, rounds: aes.rounds) {
            done, total in
            if let progress, total > 0 { progress(Double(done) / Double(total)) }
            return true
          }
        case .argon2(let argon):
          let argonParameters = try Self.argon2Parameters(argon)
          let handler: Argon2.ProgressHandler? = progress.map { report in
            { (step: Argon2.Progress) -> Bool in
              report(Double(step.completedSlices) / Double(max(step.totalSlices, 1)))
              return true
            }
          }
          let workers = max(argon2MaxConcurrency ?? argonParameters.lanes, 1)
          let byteCount = Argon2.estimate(parameters: argonParameters).memoryByteCount
          guard let provider = argon2BlockMemory else {
            return try await Argon2.deriveKey(
              password: compositeKey, salt: argon.salt, parameters: argonParameters,
              memoryLimitBytes: argon2MemoryLimitBytes, maxConcurrency: workers, progress: handler)
          }
          guard byteCount <= argon2MemoryLimitBytes else {
            throw CryptoError.memoryLimitExceeded(requiredBytes: byteCount, limitBytes: argon2MemoryLimitBytes)
          }
          guard let memory = provider.allocate(byteCount) else {
            throw CryptoError.memoryUnavailable(requiredBytes: byteCount)
          }
          defer { provider.release(memory) }
          return try await Argon2.deriveKey(
            password: compositeKey, salt: argon.salt, parameters: argonParameters, memory: memory,
            maxConcurrency: workers, prefault: provider.prefault, progress: handler)
        }
      } catch .memoryUnavailable(let required) {
        throw .insufficientMemory(requiredBytes: UInt64(clamping: required), availableBytes: nil)
      } catch .cancelled {
        throw .cancelled
      } catch {
        throw .crypto(error)
      }
    }
  }
#endif

import KDBXCrypto

#if !$Embedded
  extension StandardPrimitives {
    /// The key derivation of ``transformKey(_:parameters:)`` (the same ``kdfRun(_:)``), as an `async` function that
    /// never blocks a thread of the cooperative pool: Argon2's lanes are filled by this task and helper tasks, and
    /// this task suspends until every lane of a slice has finished (RFC 9106 §3.4's sync point); AES-KDF's two
    /// halves run as a child task and this task, in steps of 65,536 rounds. It runs in parallel on every system
    /// (without `Synchronization`, Argon2's helpers are the child tasks of a task group per slice).
    ///
    /// Task cancellation is checked before every Argon2 slice and every AES-KDF step: the derivation then stops,
    /// its memory is zeroed and released, and ``KDBXError/cancelled`` is thrown. `progress` receives the fraction
    /// done (0...1) after each slice or step; ``progress`` (the synchronous handler) is not used here.
    package func transformKey(
      _ compositeKey: [UInt8], parameters: KDFParameters, progress: (@Sendable (Double) -> Void)?
    ) async throws(KDBXError) -> [UInt8] {
      do throws(CryptoError) {
        if Task.isCancelled { throw CryptoError.cancelled }
        let run = try kdfRun(parameters)
        defer { run.release() }
        switch run.algorithm {
        case .aesKDF(let seed, let rounds):
          return try await AESKDF.transformConcurrently(key: compositeKey, seed: seed, rounds: rounds) {
            done, total in
            if let progress, total > 0 { progress(Double(done) / Double(total)) }
            return true
          }
        case .argon2(let argon, let salt):
          // The synchronous handler's form: the async derivation reports and never cancels through it.
          let report: ((Double) -> Bool)? = progress.map { progress in
            { fraction in
              progress(fraction)
              return true
            }
          }
          let handler = Self.argon2Progress(report)
          // SAFETY: `run.memory` is the provider's buffer, valid until `run.release()` (deferred above).
          guard let memory = run.memory else {
            return try await Argon2.deriveKey(
              password: compositeKey, salt: salt, parameters: argon, memoryLimitBytes: argon2MemoryLimitBytes,
              maxConcurrency: run.workers, progress: handler)
          }
          return try await Argon2.deriveKey(
            password: compositeKey, salt: salt, parameters: argon, memory: memory, maxConcurrency: run.workers,
            prefault: run.provider?.prefault, progress: handler)
        }
      } catch {
        throw Self.kdfError(error)
      }
    }
  }
#endif

import Glibc
import KDBX
import KDBXCrypto

/// Measures key-derivation costs on this machine, for `kdbx calibrate` and `--decryption-time`: the Argon2
/// iterations or AES-KDF rounds that make unlocking take a target time, as KeePassXC's "decryption time"
/// benchmark does (at least 1 iteration, at least ``AESKDF/minimumCalibratedRounds`` rounds, memory and
/// parallelism as given).
enum Calibration {
  /// The accepted targets, in milliseconds: KeePassXC's bounds for `db-create --decryption-time`.
  static let targetRange = 100...5_000

  /// A calibrated cost and what it is expected to take.
  struct Outcome {
    /// Argon2 iterations, or AES-KDF rounds.
    var cost: UInt64
    /// The expected unlock time with that cost on this machine.
    var estimated: Duration
    /// Threads the measurement used (Argon2 lanes run on up to this many cores).
    var threads: Int
  }

  /// Cores available to this process.
  static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// Why a measurement could not run.
  struct Failure: Error {
    var message: String
  }

  /// Argon2: times a one-pass and a two-pass derivation with the lanes on up to `min(lanes, cores)` threads, then
  /// applies `Argon2.iterations(forTarget:firstPass:laterPass:)` from KDBXCrypto's calibration API. The estimate
  /// is `firstPass + (iterations - 1) * laterPass`.
  ///
  /// Each run gets freshly mapped memory, as unlocking in a new process does: the first pass then pays for the
  /// page faults in both runs, and their difference is one pass. (Timing two runs through the allocator instead
  /// lets the second reuse the first one's pages, which shrinks the difference and inflates the iterations.)
  static func argon2(variant: Argon2.Variant, memoryMiB: Int, lanes: Int, target: Duration) throws(CLIError) -> Outcome
  {
    let threads = min(lanes, cores)
    let outcome = waitFor { () -> Result<Outcome, Failure> in
      do throws(Failure) {
        let firstPass = try await timedArgon2(variant, memoryKiB: memoryMiB * 1_024, lanes: lanes, passes: 1, threads)
        let twoPasses = try await timedArgon2(variant, memoryKiB: memoryMiB * 1_024, lanes: lanes, passes: 2, threads)
        let laterPass = max(twoPasses - firstPass, .zero)
        let iterations = Argon2.iterations(forTarget: target, firstPass: firstPass, laterPass: laterPass)
        return .success(
          Outcome(cost: UInt64(iterations), estimated: firstPass + laterPass * (iterations - 1), threads: threads))
      } catch {
        return .failure(error)
      }
    }
    switch outcome {
    case .success(let result): return result
    case .failure(let failure):
      throw .failure("cannot run Argon2 with \(memoryMiB) MiB and parallelism \(lanes): \(failure.message)")
    }
  }

  /// The duration of one derivation with `passes` passes in newly mapped memory.
  static func timedArgon2(
    _ variant: Argon2.Variant, memoryKiB: Int, lanes: Int, passes: Int, _ threads: Int
  ) async throws(Failure) -> Duration {
    let parameters: Argon2.Parameters
    do {
      parameters = try Argon2.Parameters(variant: variant, iterations: passes, memoryKiB: memoryKiB, lanes: lanes)
    } catch {
      throw Failure(message: "\(error)")
    }
    let byteCount = Argon2.estimate(parameters: parameters).memoryByteCount
    guard let base = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      base != MAP_FAILED
    else { throw Failure(message: "cannot map \(byteCount) bytes (errno \(errno))") }
    defer { munmap(base, byteCount) }
    let memory = UnsafeMutableRawBufferPointer(start: base, count: byteCount)
    let clock = ContinuousClock()
    let start = clock.now
    do {
      _ = try await Argon2.deriveKey(
        password: [], salt: [UInt8](repeating: 0x24, count: 32), parameters: parameters, memory: memory,
        maxConcurrency: threads)
    } catch {
      throw Failure(message: "\(error)")
    }
    return clock.now - start
  }

  /// AES-KDF: times a block of rounds on one thread (as unlocking runs them) and scales it to `target`.
  static func aesKDF(target: Duration) throws(CLIError) -> Outcome {
    do {
      let sample = try AESKDF.measureSample()
      let rounds = AESKDF.rounds(forTarget: target, sampleRounds: sample.rounds, sampleDuration: sample.duration)
      return Outcome(
        cost: rounds, estimated: sample.duration * (Double(rounds) / Double(sample.rounds)), threads: 1)
    } catch {
      throw .failure("cannot time AES-KDF: \(error)")
    }
  }

  /// `settings` with the iterations or rounds that make unlocking take `target`.
  static func calibrated(_ settings: SaveSettings, target: Duration) throws(CLIError) -> (SaveSettings, Outcome) {
    var settings = settings
    let result: Outcome
    switch settings.kdf {
    case .aesKDF(var parameters):
      result = try aesKDF(target: target)
      parameters.rounds = result.cost
      settings.kdf = .aesKDF(parameters)
    case .argon2(var parameters):
      result = try argon2(
        variant: parameters.variant == .d ? .d : .id, memoryMiB: Int(clamping: parameters.memoryBytes >> 20),
        lanes: Int(parameters.parallelism), target: target)
      parameters.iterations = result.cost
      settings.kdf = .argon2(parameters)
    }
    return (settings, result)
  }

  static func milliseconds(_ duration: Duration) -> Int {
    let (seconds, attoseconds) = duration.components
    return Int(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000)
  }
}

/// The result slot and semaphore of ``waitFor(_:)``: written by the task before it posts, read after the wait.
private final class WaitBox<T>: @unchecked Sendable {
  var value: T?
  let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

  init() { sem_init(semaphore, 0, 0) }

  deinit {
    sem_destroy(semaphore)
    semaphore.deallocate()
  }
}

/// Runs `body` on the concurrency runtime's threads and blocks the calling thread until it returns; the commands
/// are synchronous, and the main thread is not one of the runtime's worker threads.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
  let box = WaitBox<T>()
  Task.detached {
    box.value = await body()
    sem_post(box.semaphore)
  }
  while sem_wait(box.semaphore) != 0 {}
  guard let value = box.value else { preconditionFailure("the task posted without a result") }
  return value
}

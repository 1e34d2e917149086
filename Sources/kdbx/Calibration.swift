import KDBX
import KDBXCrypto
import KDBXFileIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// Argon2: times the two passes of one derivation with the lanes on every core, as unlocking runs them
  /// (`Argon2.measurePasses`), then picks the iterations with `Argon2.iterations(forTarget:firstPass:laterPass:)`.
  /// The estimate is `firstPass + (iterations - 1) * laterPass`. The first pass runs on fresh memory, so it
  /// includes the page faults a new process pays when it unlocks.
  static func argon2(variant: Argon2.Variant, memoryMiB: Int, lanes: Int, target: Duration) throws(CLIError) -> Outcome
  {
    let threads = min(lanes, cores)
    let byteCount = memoryMiB << 20
    try KDFCosts.checkMemory(bytes: UInt64(byteCount))
    // The memory that unlocking uses (see KDFTuning): mapped fresh, in the page size that maps faster now.
    guard let mapping = BlockMemoryMapping(byteCount: byteCount) else {
      throw .failure("cannot map \(byteCount) bytes for Argon2")
    }
    defer { mapping.unmap() }
    do throws(CryptoError) {
      // A small derivation first starts the helper threads, which a short measurement would otherwise include.
      _ = try Argon2.measurePasses(variant: variant, memoryKiB: 1_024, lanes: lanes, maxConcurrency: cores)
      let timings = try Argon2.measurePasses(
        variant: variant, memoryKiB: memoryMiB * 1_024, lanes: lanes, maxConcurrency: cores, memory: mapping.memory,
        prefault: mapping.prefault)
      let iterations = timings.iterations(forTarget: target)
      return Outcome(cost: UInt64(iterations), estimated: timings.duration(iterations: iterations), threads: threads)
    } catch {
      throw .failure("cannot run Argon2 with \(memoryMiB) MiB and parallelism \(lanes): \(error)")
    }
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

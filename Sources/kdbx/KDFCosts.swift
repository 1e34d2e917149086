import KDBX
import KDBXBase
import KDBXCrypto
import KDBXFileIO

/// What a key derivation will cost on this machine, checked before it runs (issue #19, "refuse before spending"):
/// its memory against what the machine can supply (`AvailableMemory`), and its work against the caps of
/// `LoadOptions` or, with `--max-kdf-seconds`, against a time measured here.
///
/// The library refuses a file over its work caps when the header is read; the CLI reads the header first so that it
/// can say, before asking for the password, how long the derivation would take here (from a quick calibration, see
/// `estimatedDuration`) and how to allow it.
enum KDFCosts {
  /// The options `kdbx` opens `bytes` with: the defaults, with the memory this machine has, and with the work caps
  /// raised to the file's own cost when `maxSeconds` is given and the derivation fits in it. Throws, before any
  /// KDF runs, when the memory is not there or the work is over the cap (the message says how long it would take).
  /// A header that does not parse (or whose checksum does not match) is left to the open, which names the damage.
  static func loadOptions(for bytes: [UInt8], maxSeconds: Int?) throws(CLIError) -> LoadOptions {
    var options = LoadOptions.default
    let available = AvailableMemory.current()
    options.availableMemoryBytes = available.bytes
    var relaxed = LoadOptions.default
    relaxed.maxArgon2WorkBytes = .max
    relaxed.maxAESKDFRounds = .max
    // The KDF settings from the header (the public `readKDF`, which also checks a KDBX 4 header's checksum).
    guard let kdf = try? KDBXFile.readKDF(bytes: bytes, options: relaxed) else { return options }
    try checkMemory(kdf, available: available)
    if let maxSeconds {
      let estimate = estimatedDuration(kdf)
      if let estimate, estimate > .seconds(maxSeconds) {
        throw .failure(
          "key derivation would take about \(words(estimate)) on this machine (\(describe(kdf))), "
            + "more than --max-kdf-seconds \(maxSeconds)")
      }
      switch kdf {
      case .argon2(let parameters): options.maxArgon2WorkBytes = max(options.maxArgon2WorkBytes, parameters.workBytes)
      case .aesKDF(let parameters): options.maxAESKDFRounds = max(options.maxAESKDFRounds, parameters.rounds)
      }
    } else if exceedsWorkCap(kdf, options) {
      let estimate = estimatedDuration(kdf)
      let suggestion = estimate.map { " (for example --max-kdf-seconds \(suggestedSeconds($0)))" } ?? ""
      throw .failure(
        "key derivation would take about \(estimate.map(words) ?? "very long") on this machine "
          + "(\(describe(kdf))); pass --max-kdf-seconds to allow it\(suggestion)")
    }
    return options
  }

  /// Refuses Argon2 memory this machine cannot supply now, with what it has.
  static func checkMemory(_ kdf: KDFParameters, available: AvailableMemory = .current()) throws(CLIError) {
    guard case .argon2(let parameters) = kdf else { return }
    try checkMemory(bytes: parameters.memoryBytes, available: available)
  }

  /// Refuses `bytes` of key-derivation memory when this machine has less available.
  static func checkMemory(bytes: UInt64, available: AvailableMemory = .current()) throws(CLIError) {
    guard let free = available.bytes, bytes > free else { return }
    throw .failure(
      "cannot reserve \(ByteCountText.describe(bytes)) for the key derivation; this machine has \(available)")
  }

  /// Refuses new settings that `kdbx` (and the library) would not open by default.
  static func checkWritable(_ kdf: KDFParameters) throws(CLIError) {
    let options = LoadOptions.default
    guard exceedsWorkCap(kdf, options) else { return }
    switch kdf {
    case .argon2(let parameters):
      throw .usage(
        "\(describe(kdf)) is \(ByteCountText.describe(parameters.workBytes)) of work (memory x iterations), over "
          + "the \(ByteCountText.describe(options.maxArgon2WorkBytes)) that kdbx opens without --max-kdf-seconds; "
          + "use fewer iterations or less memory")
    case .aesKDF:
      throw .usage(
        "\(describe(kdf)) is over the \(options.maxAESKDFRounds) rounds that kdbx opens without --max-kdf-seconds")
    }
  }

  static func exceedsWorkCap(_ kdf: KDFParameters, _ options: LoadOptions) -> Bool {
    switch kdf {
    case .argon2(let parameters): return parameters.workBytes > options.maxArgon2WorkBytes
    case .aesKDF(let parameters): return parameters.rounds > options.maxAESKDFRounds
    }
  }

  /// How long the derivation would take here, from a quick measurement: AES-KDF rounds for 20 ms on one thread
  /// (as unlocking runs them), or one two-pass Argon2 derivation with the file's lanes on every core, in freshly
  /// mapped memory as unlocking maps it, with the file's memory up to 64 MiB (about 0.3 s in a release build),
  /// scaled linearly to larger memory and to the file's iterations. Below 64 MiB the sample is the real thing;
  /// above, memory is already the bottleneck at 64 MiB (a 1 MiB sample, which stays in cache, ran 4 times faster
  /// per byte than 64 MiB here), so the scaling holds to within the noise of a shared machine.
  static func estimatedDuration(_ kdf: KDFParameters) -> Duration? {
    switch kdf {
    case .aesKDF(let parameters):
      guard let sample = try? AESKDF.measureSample(minimumDuration: .milliseconds(20)), sample.rounds > 0 else {
        return nil
      }
      return sample.duration * (Double(parameters.rounds) / Double(sample.rounds))
    case .argon2(let parameters):
      let sampleKiB = Int(min(parameters.memoryBytes / 1_024, 64 << 10))
      guard let lanes = Int(exactly: parameters.parallelism),
        AvailableMemory.current().bytes.map({ $0 >= UInt64(sampleKiB) << 10 }) ?? true,
        let mapping = BlockMemoryMapping(byteCount: sampleKiB << 10)
      else { return nil }
      defer { mapping.unmap() }
      guard
        let timings = try? Argon2.measurePasses(
          variant: parameters.variant == .d ? .d : .id, memoryKiB: sampleKiB, lanes: lanes,
          maxConcurrency: MappedMemory.onlineProcessorCount, memory: mapping.memory, prefault: mapping.prefault)
      else { return nil }
      let scale = Double(parameters.memoryBytes / 1_024) / Double(sampleKiB)
      return (timings.firstPass + timings.laterPass * Double(max(parameters.iterations, 1) - 1)) * scale
    }
  }

  /// "Argon2id, 1 MiB, 1000000 iterations, parallelism 2" or "AES-KDF, 999999999 rounds".
  static func describe(_ kdf: KDFParameters) -> String {
    switch kdf {
    case .aesKDF(let parameters): return "AES-KDF, \(parameters.rounds) rounds"
    case .argon2(let parameters):
      return "\(Names.kdf(kdf)), \(ByteCountText.describe(parameters.memoryBytes)), \(parameters.iterations) "
        + "iteration\(parameters.iterations == 1 ? "" : "s"), parallelism \(parameters.parallelism)"
    }
  }

  /// A duration in words, rounded: "40 seconds", "12 minutes", "5 hours", "21 days".
  static func words(_ duration: Duration) -> String {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    func plural(_ value: Double, _ unit: String) -> String {
      let count = max(1, Int(value.rounded()))
      return "\(count) \(unit)\(count == 1 ? "" : "s")"
    }
    if seconds < 90 { return plural(seconds, "second") }
    if seconds < 90 * 60 { return plural(seconds / 60, "minute") }
    if seconds < 48 * 3_600 { return plural(seconds / 3_600, "hour") }
    return plural(seconds / 86_400, "day")
  }

  /// A `--max-kdf-seconds` value with room for the estimate's error: 1.5 times it, rounded up to a round figure.
  static func suggestedSeconds(_ duration: Duration) -> Int {
    let seconds = Double(duration.components.seconds) * 1.5 + 1
    let step: Double = seconds < 100 ? 10 : (seconds < 1_000 ? 100 : 1_000)
    return Int(clamping: Int64(min((seconds / step).rounded(.up) * step, 1e15)))
  }
}

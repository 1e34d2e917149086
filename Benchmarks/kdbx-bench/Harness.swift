// The benchmark harness: warm-up, repeated timed runs, and median/min/max reporting.

import KDBXBase

/// How a benchmark's figure is expressed.
enum BenchmarkUnit {
  /// Throughput in MiB/s; each iteration processes this many bytes.
  case mebibytesPerSecond(bytesPerIteration: Int)
  /// Milliseconds per iteration.
  case millisecondsPerIteration
  /// Items per second (for example AES-KDF rounds); each iteration processes this many items.
  case perSecond(itemsPerIteration: Int, label: String)

  var label: String {
    switch self {
    case .mebibytesPerSecond: return "MiB/s"
    case .millisecondsPerIteration: return "ms"
    case .perSecond(_, let label): return label
    }
  }

  /// Whether a larger figure is better (throughput) or worse (latency).
  var higherIsBetter: Bool {
    if case .millisecondsPerIteration = self { return false }
    return true
  }

  func figure(iterations: Int, seconds: Double) -> Double {
    switch self {
    case .mebibytesPerSecond(let bytes):
      return Double(bytes) * Double(iterations) / seconds / 1_048_576
    case .millisecondsPerIteration:
      return seconds * 1000 / Double(iterations)
    case .perSecond(let items, _):
      return Double(items) * Double(iterations) / seconds
    }
  }
}

/// One benchmark. `make` prepares inputs (not timed) and returns the body, which runs the
/// measured work `iterations` times.
struct Benchmark {
  var name: String
  var unit: BenchmarkUnit
  /// Timed runs after warm-up.
  var runs: Int = 11
  /// The harness raises the iteration count until one run takes at least this long.
  var minimumRunSeconds: Double = 0.05
  var make: () -> (_ iterations: Int) -> Void
}

/// Results a benchmark body hands over to be freed after its timed run, untimed: the inflate benchmarks put their
/// last output here, as the libdeflate anchor (Benchmarks/scripts/libdeflate_bench.c) frees its output outside the
/// timed region. Unmapping a 50 MB result costs about 3 ms, which is not decompression.
nonisolated(unsafe) var releasedAfterRun: [[UInt8]] = []

/// Keeps a value alive so the optimizer cannot remove the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// A deterministic generator for benchmark inputs (SplitMix64).
struct BenchRandom {
  /// The library's generator (`SelfTestPattern` in KDBXBase).
  var pattern: SelfTestPattern
  init(seed: UInt64 = 0x5eed) { pattern = SelfTestPattern(seed: seed) }
  mutating func next() -> UInt64 { pattern.next() }
  mutating func bytes(_ count: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    var index = 0
    while index < count {
      var word = next()
      for _ in 0..<8 where index < count {
        out[index] = UInt8(truncatingIfNeeded: word)
        word >>= 8
        index += 1
      }
    }
    return out
  }
}

struct BenchmarkResult {
  var name: String
  var unit: String
  var median: Double
  var min: Double
  var max: Double
  var runs: Int
}

func seconds(_ duration: Duration) -> Double {
  let parts = duration.components
  return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
}

func measure(_ benchmark: Benchmark) -> BenchmarkResult {
  let body = benchmark.make()
  let clock = ContinuousClock()
  // Warm-up, and find an iteration count that makes one run long enough to time.
  var iterations = 1
  while true {
    let elapsed = seconds(clock.measure { body(iterations) })
    releasedAfterRun.removeAll()
    if elapsed >= benchmark.minimumRunSeconds || iterations >= 1 << 30 { break }
    let scale = elapsed > 0 ? benchmark.minimumRunSeconds / elapsed * 1.2 : 16
    iterations = Swift.max(iterations * 2, Int(Double(iterations) * Swift.min(scale, 1000)))
  }
  var figures: [Double] = []
  for _ in 0..<Swift.max(1, benchmark.runs) {
    let elapsed = seconds(clock.measure { body(iterations) })
    releasedAfterRun.removeAll()
    figures.append(benchmark.unit.figure(iterations: iterations, seconds: Swift.max(elapsed, 1e-9)))
  }
  figures.sort()
  return BenchmarkResult(
    name: benchmark.name, unit: benchmark.unit.label, median: figures[figures.count / 2],
    min: figures[0], max: figures[figures.count - 1], runs: figures.count)
}

func format(_ value: Double) -> String {
  // Three significant decimals are plenty for a benchmark figure.
  let scaled = (value * 1000).rounded() / 1000
  return String(scaled)
}

func jsonEscaped(_ text: String) -> String {
  var out = ""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out
}

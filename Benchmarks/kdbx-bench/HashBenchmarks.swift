// Hash and MAC benchmarks. Registered in main.swift through `hashBenchmarks()`.
import KDBXCrypto

func hashBenchmarks() -> [Benchmark] {
  return [
    Benchmark(name: "sha256-16MiB", unit: .mebibytesPerSecond(bytesPerIteration: 16 << 20), runs: 5) {
      var random = BenchRandom()
      let input = random.bytes(16 << 20)
      return { iterations in
        for _ in 0..<iterations { blackHole(SHA256.hash(input)) }
      }
    }
  ]
}

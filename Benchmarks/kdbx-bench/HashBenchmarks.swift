// Hash and MAC benchmarks. Registered in main.swift through `hashBenchmarks()`.
import KDBXCrypto

/// One throughput benchmark of `H.hash` on `byteCount` random bytes.
private func hashBenchmark<H: HashFunction>(_ name: String, _: H.Type, byteCount: Int) -> Benchmark {
  let runs = byteCount >= 1 << 20 ? 7 : 11
  return Benchmark(name: name, unit: .mebibytesPerSecond(bytesPerIteration: byteCount), runs: runs) {
    var random = BenchRandom()
    let input = random.bytes(byteCount)
    return { iterations in
      for _ in 0..<iterations { blackHole(H.hash(input)) }
    }
  }
}

private let hashSizes: [(label: String, byteCount: Int)] = [
  ("64B", 64), ("1KiB", 1 << 10), ("64KiB", 64 << 10), ("16MiB", 16 << 20),
]

func hashBenchmarks() -> [Benchmark] {
  var all: [Benchmark] = []
  for size in hashSizes { all.append(hashBenchmark("sha1-\(size.label)", SHA1.self, byteCount: size.byteCount)) }
  for size in hashSizes { all.append(hashBenchmark("sha256-\(size.label)", SHA256.self, byteCount: size.byteCount)) }
  for size in hashSizes { all.append(hashBenchmark("sha512-\(size.label)", SHA512.self, byteCount: size.byteCount)) }
  all.append(
    Benchmark(name: "sha256-1MiB", unit: .mebibytesPerSecond(bytesPerIteration: 1 << 20), runs: 11) {
      var random = BenchRandom()
      let input = random.bytes(1 << 20)
      return { iterations in
        for _ in 0..<iterations { blackHole(SHA256.hash(input)) }
      }
    })
  all.append(
    Benchmark(name: "hmac-sha256-1MiB", unit: .mebibytesPerSecond(bytesPerIteration: 1 << 20), runs: 11) {
      var random = BenchRandom()
      let input = random.bytes(1 << 20)
      let key = random.bytes(64)
      return { iterations in
        for _ in 0..<iterations { blackHole(HMAC<SHA256>.authenticationCode(for: input, key: key)) }
      }
    })
  return all
}

import KDBXCompression

// Compression benchmarks. Registered in main.swift through `compressionBenchmarks()`.
// Inflate figures are MiB/s of output; deflate figures are MiB/s of input. Each deflate benchmark
// also prints its compressed size on standard error ("# size ..." lines) when it is prepared.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// Deterministic text: words from a small vocabulary with random letters, spaces and newlines.
func benchmarkRandomText(_ count: Int) -> [UInt8] {
  var random = BenchRandom(seed: 0x7e47)
  let words = [
    "the", "of", "and", "password", "entry", "group", "value", "server", "login", "backup", "notes", "title", "url",
    "admin", "recovery", "account", "key", "time", "string", "user",
  ].map { Array($0.utf8) }
  var out: [UInt8] = []
  out.reserveCapacity(count + 32)
  while out.count < count {
    let choice = Int(random.next() % 32)
    if choice < words.count {
      out += words[choice]
    } else {
      for _ in 0..<(2 + random.next() % 6) { out.append(UInt8(0x61 + random.next() % 26)) }
    }
    out.append(random.next() % 10 == 0 ? 0x0A : 0x20)
  }
  return Array(out[0..<count])
}

private func reportSize(_ name: String, input: Int, output: Int) {
  let ratio = Double(input) / Double(max(output, 1))
  let line = "# size \(name): \(input) B -> \(output) B (ratio \(format(ratio)))\n"
  // Standard error, so that --json output stays valid.
  _ = line.withCString { write(2, $0, strlen($0)) }
}

/// The nominal size of `benchmarkDocument()` (it is within 0.01% of this), so that registering a
/// benchmark does not build the document.
private let documentByteCount = 50_000_000

/// The size of `largeVaultDocument()`, read from the document (built once, only when a benchmark on it runs).
private var largeDocumentByteCount: Int { max(largeVaultDocument().count, 1) }

private func deflateBenchmark(
  _ name: String, level: Int, runs: Int, byteCount: Int, input: @escaping () -> [UInt8]
) -> Benchmark {
  Benchmark(name: name, unit: .mebibytesPerSecond(bytesPerIteration: byteCount), runs: runs) {
    let data = input()
    reportSize(name, input: data.count, output: Deflate.compress(data, level: level).count)
    return { iterations in
      for _ in 0..<iterations { blackHole(Deflate.compress(data, level: level)) }
    }
  }
}

nonisolated(unsafe) private var cachedRandomText: [UInt8]? = nil
private func randomText16MiB() -> [UInt8] {
  if let text = cachedRandomText { return text }
  let text = benchmarkRandomText(16 << 20)
  cachedRandomText = text
  return text
}

func compressionBenchmarks() -> [Benchmark] {
  return [
    Benchmark(name: "inflate-keepass50MB", unit: .mebibytesPerSecond(bytesPerIteration: documentByteCount), runs: 7) {
      let document = benchmarkDocument()
      let packed = Deflate.compress(document, level: 6)
      return { iterations in
        for iteration in 0..<iterations {
          guard let out = try? Inflate.decompress(packed), out.count == document.count else {
            fatalError("inflate failed")
          }
          // The last output is freed after the timed run, as the libdeflate anchor frees its own.
          if iteration == iterations - 1 { releasedAfterRun.append(out) } else { blackHole(out) }
        }
      }
    },
    Benchmark(
      name: "gzip-decompress-keepass50MB", unit: .mebibytesPerSecond(bytesPerIteration: documentByteCount), runs: 7
    ) {
      let packed = Gzip.compress(benchmarkDocument(), level: 6)
      return { iterations in
        for _ in 0..<iterations { blackHole(try? Gzip.decompress(packed)) }
      }
    },
    Benchmark(name: "inflate-text16MiB", unit: .mebibytesPerSecond(bytesPerIteration: 16 << 20), runs: 7) {
      let packed = Deflate.compress(randomText16MiB(), level: 6)
      return { iterations in
        for _ in 0..<iterations { blackHole(try? Inflate.decompress(packed)) }
      }
    },
    deflateBenchmark(
      "deflate-l1-keepass50MB", level: 1, runs: 5, byteCount: documentByteCount, input: benchmarkDocument),
    deflateBenchmark(
      "deflate-l6-keepass50MB", level: 6, runs: 5, byteCount: documentByteCount, input: benchmarkDocument),
    deflateBenchmark(
      "deflate-l9-keepass50MB", level: 9, runs: 3, byteCount: documentByteCount, input: benchmarkDocument),
    // large_5000.kdbx's inner XML (about 6 MB): a real vault's document, as a save compresses it.
    Benchmark(
      name: "inflate-large5000xml", unit: .mebibytesPerSecond(bytesPerIteration: largeDocumentByteCount), runs: 7
    ) {
      let document = largeVaultDocument()
      let packed = Deflate.compress(document, level: 6)
      return { iterations in
        for iteration in 0..<iterations {
          guard let out = try? Inflate.decompress(packed), out.count == document.count else {
            fatalError("inflate failed")
          }
          // The last output is freed after the timed run, as the libdeflate anchor frees its own.
          if iteration == iterations - 1 { releasedAfterRun.append(out) } else { blackHole(out) }
        }
      }
    },
    // The save's read-back: large_5000's document compared with its DEFLATE stream as it decodes (no output made).
    Benchmark(
      name: "inflate-verify-large5000xml", unit: .mebibytesPerSecond(bytesPerIteration: largeDocumentByteCount),
      runs: 7
    ) {
      let document = largeVaultDocument()
      let packed = Deflate.compress(document, level: 6)
      return { iterations in
        for _ in 0..<iterations {
          guard (try? Inflate.verify(packed, startingAt: 0, expecting: [], document)) == packed.count else {
            fatalError("inflate verification failed")
          }
        }
      }
    },
    deflateBenchmark(
      "deflate-l1-large5000xml", level: 1, runs: 7, byteCount: largeDocumentByteCount, input: largeVaultDocument),
    deflateBenchmark(
      "deflate-l6-large5000xml", level: 6, runs: 7, byteCount: largeDocumentByteCount, input: largeVaultDocument),
    deflateBenchmark(
      "deflate-l9-large5000xml", level: 9, runs: 5, byteCount: largeDocumentByteCount, input: largeVaultDocument),
    deflateBenchmark(
      "deflate-l1-text16MiB", level: 1, runs: 5, byteCount: 16 << 20, input: randomText16MiB),
    deflateBenchmark(
      "deflate-l6-text16MiB", level: 6, runs: 5, byteCount: 16 << 20, input: randomText16MiB),
    deflateBenchmark(
      "deflate-l9-text16MiB", level: 9, runs: 3, byteCount: 16 << 20, input: randomText16MiB),
    Benchmark(name: "crc32-16MiB", unit: .mebibytesPerSecond(bytesPerIteration: 16 << 20), runs: 7) {
      var random = BenchRandom()
      let input = random.bytes(16 << 20)
      return { iterations in
        for _ in 0..<iterations { blackHole(CRC32.checksum(input)) }
      }
    },
  ]
}

import KDBXBase
import KDBXCrypto
import KDBXFileIO

// KDF benchmarks. Registered in main.swift through `kdfBenchmarks()`.
//
// Argon2 is measured as milliseconds per derivation, lanes on concurrent tasks (maxConcurrency = the number
// of online cores, so a spare core takes the page faults of the first pass when p < cores),
// in three memory set-ups:
//   cold      the library allocates the block memory on every derivation. Sizes of 64 MiB and more are
//             fresh mmap'd pages each time, so every derivation pays the 4 KiB page faults of a fresh
//             process, as an unlock does.
//   warm      the caller passes the same, already faulted memory every time (no page faults).
//   hugepage  the caller maps fresh memory with madvise(MADV_HUGEPAGE) for every derivation (as the CLI
//             can), so faults come in 2 MiB pages.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` on the global concurrent executor and blocks this (non-pool) thread until it finishes.
func runBlocking(_ body: @escaping @Sendable () async -> Void) {
  let done = OneShotSignal()
  Task.detached {
    await body()
    done.signal()
  }
  done.wait()
}

/// Block memory mapped with mmap and madvise(MADV_HUGEPAGE), Sendable for the benchmark closures.
struct MappedMemory: @unchecked Sendable {
  let buffer: UnsafeMutableRawBufferPointer

  init?(byteCount: Int, hugePages: Bool) {
    guard let address = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      address != MAP_FAILED
    else { return nil }
    #if os(Linux)
      if hugePages { _ = madvise(address, byteCount, 14) }  // MADV_HUGEPAGE (Linux only)
    #endif
    buffer = UnsafeMutableRawBufferPointer(start: address, count: byteCount)
  }

  func unmap() { munmap(buffer.baseAddress, buffer.count) }
}

/// The number of online cores, the `maxConcurrency` the benchmarks pass.
let benchmarkCores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

enum KDFMemory {
  case cold, warm, hugepage
}

func argon2Benchmark(_ variant: Argon2.Variant, mebibytes: Int, iterations: Int, lanes: Int, memory: KDFMemory)
  -> Benchmark
{
  let name =
    "argon2\(variant)-\(mebibytes < 1024 ? "\(mebibytes)MiB" : "\(mebibytes / 1024)GiB")-t\(iterations)-p\(lanes)-\(memory)"
  let heavy = mebibytes * iterations >= 1024
  return Benchmark(name: name, unit: .millisecondsPerIteration, runs: heavy ? 5 : 9, minimumRunSeconds: 0.0) {
    guard
      let parameters = try? Argon2.Parameters(
        variant: variant, iterations: iterations, memoryKiB: mebibytes * 1024, lanes: lanes)
    else { fatalError("bad benchmark parameters") }
    let password = Array("password".utf8)
    let salt = Array("somesalt".utf8)
    let byteCount = Argon2.estimate(parameters: parameters).memoryByteCount
    let reused = memory == .warm ? MappedMemory(byteCount: byteCount, hugePages: false) : nil
    if let reused { reused.buffer.initializeMemory(as: UInt8.self, repeating: 1) }
    return { count in
      for _ in 0..<count {
        runBlocking {
          switch memory {
          case .cold:
            blackHole(
              try? await Argon2.deriveKey(
                password: password, salt: salt, parameters: parameters, maxConcurrency: benchmarkCores)
            )
          case .warm:
            guard let reused else { return }
            blackHole(
              try? await Argon2.deriveKey(
                password: password, salt: salt, parameters: parameters, memory: reused.buffer,
                maxConcurrency: benchmarkCores))
          case .hugepage:
            guard let mapped = MappedMemory(byteCount: byteCount, hugePages: true) else { return }
            blackHole(
              try? await Argon2.deriveKey(
                password: password, salt: salt, parameters: parameters, memory: mapped.buffer,
                maxConcurrency: benchmarkCores))
            mapped.unmap()
          }
        }
      }
    }
  }
}

/// Argon2d 64 MiB, t=2, p=2 through each concurrency path (issue #25), fresh library-allocated memory each time:
///   sync-parallel  the synchronous driver with helper tasks (ParallelWork, per slice: needs Synchronization, the CLI's path)
///   sync-fallback  the same call where Synchronization is missing (macOS < 15, iOS < 18): lanes one after another
///   async-groups   the async driver (the calling task and helper tasks claim the segments of each slice; the calling
///                  task suspends for the last ones), which every system runs in parallel
enum ConcurrencyPath: String, CaseIterable {
  case syncParallel = "sync-parallel"
  case syncFallback = "sync-fallback"
  case asyncGroups = "async-groups"
}

func argon2PathBenchmark(_ path: ConcurrencyPath, variant: Argon2.Variant = .d, lanes: Int = 2) -> Benchmark {
  Benchmark(
    name: "argon2\(variant)-64MiB-t2-p\(lanes)-\(path.rawValue)", unit: .millisecondsPerIteration, runs: 9,
    minimumRunSeconds: 0.0
  ) {
    guard let parameters = try? Argon2.Parameters(variant: variant, iterations: 2, memoryKiB: 64 * 1024, lanes: lanes)
    else {
      fatalError("bad benchmark parameters")
    }
    let password = Array("password".utf8)
    let salt = Array("somesalt".utf8)
    return { count in
      for _ in 0..<count {
        switch path {
        case .syncParallel:
          blackHole(
            try? Argon2.deriveKey(
              password: password, salt: salt, parameters: parameters, maxConcurrency: benchmarkCores))
        case .syncFallback:
          SynchronizationSupport.$forcesFallback.withValue(true) {
            blackHole(
              try? Argon2.deriveKey(
                password: password, salt: salt, parameters: parameters, maxConcurrency: benchmarkCores))
          }
        case .asyncGroups:
          runBlocking {
            blackHole(
              try? await Argon2.deriveKey(
                password: password, salt: salt, parameters: parameters, maxConcurrency: benchmarkCores))
          }
        }
      }
    }
  }
}

func kdfBenchmarks() -> [Benchmark] {
  var benchmarks = [
    Benchmark(name: "blake2b-16MiB", unit: .mebibytesPerSecond(bytesPerIteration: 16 << 20), runs: 5) {
      var random = BenchRandom()
      let input = random.bytes(16 << 20)
      return { iterations in
        for _ in 0..<iterations { blackHole(try? BLAKE2b.hash(input)) }
      }
    }
  ]
  // In-cache kernel speed: 1 MiB stays in L2, so this measures the compression function, not memory.
  benchmarks.append(argon2Benchmark(.d, mebibytes: 1, iterations: 64, lanes: 1, memory: .warm))
  let configurations = [(64, 2, 1), (64, 2, 2), (256, 4, 2), (1024, 1, 2)]
  for variant in [Argon2.Variant.d, .id] {
    for (mebibytes, iterations, lanes) in configurations {
      for memory in [KDFMemory.cold, .warm, .hugepage] {
        benchmarks.append(
          argon2Benchmark(variant, mebibytes: mebibytes, iterations: iterations, lanes: lanes, memory: memory))
      }
    }
  }
  benchmarks += ConcurrencyPath.allCases.map { argon2PathBenchmark($0) }
  // Issue #38: the async driver against the synchronous parallel one, Argon2id with two and four lanes.
  for lanes in [2, 4] {
    benchmarks += [ConcurrencyPath.syncParallel, .asyncGroups].map {
      argon2PathBenchmark($0, variant: .id, lanes: lanes)
    }
  }
  return benchmarks
}

/// `kdbx-bench --derive`: one cold derivation through the synchronous parallel path with mapped, prefaulted memory,
/// as the CLI runs it. Returns the exit status.
func deriveOnce(variant: Argon2.Variant, mebibytes: Int, iterations: Int, lanes: Int) -> Int32 {
  guard
    let parameters = try? Argon2.Parameters(
      variant: variant, iterations: iterations, memoryKiB: mebibytes * 1024, lanes: lanes)
  else { return 1 }
  let clock = ContinuousClock()
  let start = clock.now
  Task.detached(priority: .high) {}  // as the CLI starts a worker thread first (Sources/kdbx/main.swift)
  let byteCount = Argon2.estimate(parameters: parameters).memoryByteCount
  // As the CLI maps it (AdaptivePageMapping); KDBX_BENCH_HUGEPAGES=0 or 1 forces 4 KiB or huge pages.
  var policy = PageMappingPolicy.adaptive
  if let value = getenv("KDBX_BENCH_HUGEPAGES") { policy = String(cString: value) == "0" ? .smallPages : .hugePages }
  guard let mapping = BlockMemoryMapping(byteCount: byteCount, policy: policy) else { return 1 }
  // As the CLI maps the pages ahead of the first pass; KDBX_BENCH_PREFAULT=0 leaves them to page faults.
  var prefault: Argon2.MemoryPrefault? = mapping.prefault
  if let value = getenv("KDBX_BENCH_PREFAULT"), String(cString: value) == "0" { prefault = nil }
  // KDBX_BENCH_TRACE=1 prints when each slice ended (the progress handler runs after every sync point).
  var sliceEnds: [Duration] = []
  let traces = getenv("KDBX_BENCH_TRACE") != nil
  if traces { sliceEnds.reserveCapacity(iterations * 4) }
  let tag = try? Argon2.deriveKey(
    password: Array("password".utf8), salt: Array("somesalt".utf8), parameters: parameters, memory: mapping.memory,
    maxConcurrency: KDBXFileIO.MappedMemory.onlineProcessorCount, prefault: prefault,
    progress: traces
      ? { _ in
        sliceEnds.append(clock.now - start)
        return true
      } : nil)
  let derived = clock.now - start
  mapping.unmap()
  let elapsed = clock.now - start
  guard let tag else { return 1 }
  func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
  }
  for (index, end) in sliceEnds.enumerated() {
    print("pass \(index / 4) slice \(index % 4) ended at \(milliseconds(end)) ms")
  }
  if traces {
    print("derivation and wipe ended at \(milliseconds(derived)) ms")
    print(mapping.describePages())
  }
  let milliseconds = milliseconds(elapsed)
  print(
    "argon2\(variant) m=\(mebibytes)MiB t=\(iterations) p=\(lanes) \(milliseconds) ms tag \(tag.prefix(8).map { String($0, radix: 16) }.joined())"
  )
  return 0
}

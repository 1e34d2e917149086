import KDBXCrypto
import Synchronization
import Testing

@Suite("Argon2 API")
struct Argon2Tests {
  static let password = Array("password".utf8)
  static let salt = Array("somesalt".utf8)

  // MARK: Parameters (RFC 9106 §3.1)

  struct BadParameters: Sendable, CustomTestStringConvertible {
    let name: String
    let iterations: Int
    let memoryKiB: Int
    let lanes: Int
    let outputLength: Int
    var testDescription: String { "\(name): t=\(iterations) m=\(memoryKiB) p=\(lanes) T=\(outputLength)" }
  }

  @Test(
    "out-of-range parameters are refused, naming the RFC input",
    arguments: [
      BadParameters(name: "t", iterations: 0, memoryKiB: 64, lanes: 1, outputLength: 32),
      BadParameters(name: "t", iterations: -1, memoryKiB: 64, lanes: 1, outputLength: 32),
      BadParameters(name: "t", iterations: 1 << 32, memoryKiB: 64, lanes: 1, outputLength: 32),
      BadParameters(name: "p", iterations: 1, memoryKiB: 64, lanes: 0, outputLength: 32),
      BadParameters(name: "p", iterations: 1, memoryKiB: 1 << 30, lanes: 1 << 24, outputLength: 32),
      BadParameters(name: "m", iterations: 1, memoryKiB: 7, lanes: 1, outputLength: 32),
      BadParameters(name: "m", iterations: 1, memoryKiB: 31, lanes: 4, outputLength: 32),
      BadParameters(name: "m", iterations: 1, memoryKiB: 1 << 32, lanes: 1, outputLength: 32),
      BadParameters(name: "T", iterations: 1, memoryKiB: 64, lanes: 1, outputLength: 3),
      BadParameters(name: "T", iterations: 1, memoryKiB: 64, lanes: 1, outputLength: 1 << 32),
    ])
  func badParameters(_ bad: BadParameters) {
    #expect {
      _ = try Argon2.Parameters(
        iterations: bad.iterations, memoryKiB: bad.memoryKiB, lanes: bad.lanes, outputLength: bad.outputLength)
    } throws: { error in
      guard case CryptoError.invalidParameter(let name, _) = error else { return false }
      return name == bad.name
    }
  }

  @Test("the extremes of the ranges are accepted")
  func extremes() throws {
    _ = try Argon2.Parameters(iterations: 1, memoryKiB: 8, lanes: 1, outputLength: 4)
    _ = try Argon2.Parameters(
      iterations: Int(UInt32.max), memoryKiB: Int(UInt32.max), lanes: 0xff_ffff, outputLength: Int(UInt32.max))
  }

  @Test("a salt shorter than 8 bytes is refused")
  func shortSalt() throws {
    let parameters = try Argon2.Parameters(iterations: 1, memoryKiB: 8, lanes: 1)
    #expect(throws: CryptoError.invalidParameter(name: "S", reason: "Argon2 salt must be 8...2^32-1 bytes")) {
      try Argon2.deriveKey(password: Self.password, salt: [1, 2, 3, 4, 5, 6, 7], parameters: parameters)
    }
  }

  // MARK: Cost planning and memory ceiling

  @Test("estimate rounds m down to a multiple of 4p (RFC 9106 §3.2 step 3)")
  func estimate() throws {
    let cost = Argon2.estimate(parameters: try Argon2.Parameters(iterations: 3, memoryKiB: 100, lanes: 3))
    #expect(cost.blockCount == 96)
    #expect(cost.memoryByteCount == 96 * 1024)
    #expect(cost.laneLength == 32)
    #expect(cost.segmentLength == 8)
    #expect(cost.blockCompressions == 96 * 3 - 6)
    let big = Argon2.estimate(parameters: try Argon2.Parameters(iterations: 1, memoryKiB: 1 << 20, lanes: 2))
    #expect(big.memoryByteCount == 1 << 30)
  }

  @Test("a request above the memory ceiling throws before allocating")
  func memoryCeiling() throws {
    // 4 TiB would fail to allocate; the ceiling must refuse it first.
    let huge = try Argon2.Parameters(iterations: 1, memoryKiB: Int(UInt32.max), lanes: 1)
    let required = Argon2.estimate(parameters: huge).memoryByteCount
    #expect(throws: CryptoError.memoryLimitExceeded(requiredBytes: required, limitBytes: 1 << 30)) {
      try Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: huge)
    }
    let small = try Argon2.Parameters(iterations: 1, memoryKiB: 64, lanes: 1)
    #expect(throws: CryptoError.memoryLimitExceeded(requiredBytes: 65536, limitBytes: 65535)) {
      try Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: small, memoryLimitBytes: 65535)
    }
    _ = try Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: small, memoryLimitBytes: 65536)
    let longTag = try Argon2.Parameters(iterations: 1, memoryKiB: 8, lanes: 1, outputLength: Int(UInt32.max))
    #expect(throws: CryptoError.memoryLimitExceeded(requiredBytes: Int(UInt32.max), limitBytes: 1 << 30)) {
      try Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: longTag)
    }
  }

  // MARK: Caller memory

  @Test("caller memory gives the same tag and is zeroed afterwards")
  func callerMemory() async throws {
    let parameters = try Argon2.Parameters(variant: .d, iterations: 2, memoryKiB: 256, lanes: 2)
    let expected = try Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: parameters)
    let byteCount = Argon2.estimate(parameters: parameters).memoryByteCount
    let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount + 1024, alignment: 64)
    defer { memory.deallocate() }
    memory.initializeMemory(as: UInt8.self, repeating: 0xa5)
    let tag = try Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: parameters, memory: memory)
    #expect(tag == expected)
    #expect(memory[0..<byteCount].allSatisfy { $0 == 0 })
    let parallel = try await Argon2.deriveKey(
      password: Self.password, salt: Self.salt, parameters: parameters, memory: memory, maxConcurrency: 2)
    #expect(parallel == expected)
  }

  @Test("the prefault hook sees every first-pass segment once, before it is written", arguments: [2, 3, 4])
  func prefaultHook(maxConcurrency: Int) async throws {
    let parameters = try Argon2.Parameters(variant: .id, iterations: 2, memoryKiB: 512, lanes: 3)
    let expected = try Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: parameters)
    let byteCount = Argon2.estimate(parameters: parameters).memoryByteCount
    let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 64)
    defer { memory.deallocate() }
    memory.initializeMemory(as: UInt8.self, repeating: 0xa5)
    let base = Int(bitPattern: memory.baseAddress)
    let seen = Mutex<[Range<Int>]>([])
    // The synchronous entry point (from an async function, the async overload would be chosen).
    let blocking: () throws(CryptoError) -> [UInt8] = {
      try Argon2.deriveKey(
        password: Self.password, salt: Self.salt, parameters: parameters, memory: memory,
        maxConcurrency: maxConcurrency, prefault: hook)
    }
    @Sendable func hook(_ range: UnsafeMutableRawBufferPointer) -> Bool {
      let start = Int(bitPattern: range.baseAddress) - base
      // Untouched except for the first two blocks of each lane, which the first slice starts from.
      let written = range.indices.filter { range[$0] != 0xa5 }.count
      seen.withLock { $0.append(start..<(start + range.count)) }
      #expect(written <= 2048)
      return true
    }
    let tag = try blocking()
    #expect(tag == expected)
    #expect(memory.allSatisfy { $0 == 0 }, "the memory is wiped, in parts")
    let ranges = seen.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound }
    seen.withLock { $0 = [] }
    memory.initializeMemory(as: UInt8.self, repeating: 0xa5)
    let asyncTag = try await Argon2.deriveKey(
      password: Self.password, salt: Self.salt, parameters: parameters, memory: memory,
      maxConcurrency: maxConcurrency,
      prefault: { range in
        let start = Int(bitPattern: range.baseAddress) - base
        seen.withLock { $0.append(start..<(start + range.count)) }
        return true
      })
    #expect(asyncTag == expected)
    #expect(seen.withLock { $0 }.sorted { $0.lowerBound < $1.lowerBound } == ranges, "the async path maps the same")
    #expect(ranges.count == 12, "3 lanes x 4 slices")
    #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == byteCount)
    #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound }, "no gap, no overlap")
  }

  /// Issue #19 item 6: when the system refuses pages (`MADV_POPULATE_WRITE` failing with `ENOMEM`), the derivation
  /// must not write them (the kernel would kill the process): it stops, zeroes what it wrote, and throws.
  @Test("a prefault hook that fails stops the derivation before its segment is written", arguments: [2, 3, 4])
  func failingPrefaultHook(maxConcurrency: Int) async throws {
    let parameters = try Argon2.Parameters(variant: .id, iterations: 2, memoryKiB: 512, lanes: 3)
    let byteCount = Argon2.estimate(parameters: parameters).memoryByteCount
    let segmentBytes = byteCount / 3 / 4
    let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 64)
    defer { memory.deallocate() }
    let base = Int(bitPattern: memory.baseAddress)
    // The hook refuses the segment of lane 1 in slice 2: it and every later segment must stay untouched.
    let refusedStart = 1 * (byteCount / 3) + 2 * segmentBytes
    let refuse: Argon2.MemoryPrefault = { range in Int(bitPattern: range.baseAddress) - base != refusedStart }
    for run in 0..<2 {
      memory.initializeMemory(as: UInt8.self, repeating: 0xa5)
      let blocking: () throws(CryptoError) -> [UInt8] = {
        try Argon2.deriveKey(
          password: Self.password, salt: Self.salt, parameters: parameters, memory: memory,
          maxConcurrency: maxConcurrency, prefault: refuse)
      }
      do {
        _ =
          run == 0
          ? try blocking()
          : try await Argon2.deriveKey(
            password: Self.password, salt: Self.salt, parameters: parameters, memory: memory,
            maxConcurrency: maxConcurrency, prefault: refuse)
        Issue.record("the derivation did not stop (run \(run))")
      } catch {
        #expect(error == .memoryUnavailable(requiredBytes: byteCount))
      }
      let refused = memory[refusedStart..<(refusedStart + segmentBytes)]
      #expect(refused.allSatisfy { $0 == 0xa5 }, "the refused segment is never written (run \(run))")
      for lane in 0..<3 {
        let laneStart = lane * (byteCount / 3)
        // Slices 0 and 1 were filled in every lane, then wiped; slice 3 was never reached.
        #expect(memory[laneStart..<(laneStart + 2 * segmentBytes)].allSatisfy { $0 == 0 }, "lane \(lane) wiped")
        let last = laneStart + 3 * segmentBytes
        #expect(memory[last..<(last + segmentBytes)].allSatisfy { $0 == 0xa5 }, "lane \(lane) slice 3 untouched")
      }
    }
  }

  @Test("caller memory that is too small or misaligned is refused")
  func badCallerMemory() throws {
    let parameters = try Argon2.Parameters(iterations: 1, memoryKiB: 64, lanes: 1)
    let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536 + 16, alignment: 64)
    defer { memory.deallocate() }
    #expect {
      try Argon2.deriveKey(
        password: Self.password, salt: Self.salt, parameters: parameters,
        memory: UnsafeMutableRawBufferPointer(rebasing: memory[0..<65535]))
    } throws: { error in
      if case CryptoError.invalidParameter(name: "memory", _) = error { return true }
      return false
    }
    #expect {
      try Argon2.deriveKey(
        password: Self.password, salt: Self.salt, parameters: parameters,
        memory: UnsafeMutableRawBufferPointer(rebasing: memory[8..<65544]))
    } throws: { error in
      if case CryptoError.invalidParameter(name: "memory", _) = error { return true }
      return false
    }
  }

  // MARK: Progress and cancellation

  @Test("progress is reported after every slice of every pass")
  func progress() throws {
    let parameters = try Argon2.Parameters(iterations: 3, memoryKiB: 64, lanes: 2)
    var reports: [Argon2.Progress] = []
    _ = try Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: parameters) { report in
      reports.append(report)
      return true
    }
    #expect(reports.count == 12)
    #expect(reports.map(\.completedSlices) == Array(1...12))
    #expect(reports.map(\.pass) == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
    #expect(reports.map(\.slice) == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3])
    #expect(reports.last?.fractionCompleted == 1)
  }

  @Test("returning false from progress cancels after that slice")
  func cancelFromProgress() async throws {
    let parameters = try Argon2.Parameters(iterations: 2, memoryKiB: 64, lanes: 2)
    var calls = 0
    #expect(throws: CryptoError.cancelled) {
      try Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: parameters) { _ in
        calls += 1
        return calls < 3
      }
    }
    #expect(calls == 3)
    var asyncCalls = 0
    await #expect(throws: CryptoError.cancelled) {
      try await Argon2.deriveKey(
        password: Self.password, salt: Self.salt, parameters: parameters, maxConcurrency: 2
      ) { _ in
        asyncCalls += 1
        return false
      }
    }
    #expect(asyncCalls == 1)
  }

  @Test("cancelling the task stops the derivation")
  func taskCancellation() async throws {
    let parameters = try Argon2.Parameters(iterations: 1000, memoryKiB: 64, lanes: 2)
    let task = Task {
      try await Argon2.deriveKey(
        password: Self.password, salt: Self.salt, parameters: parameters, maxConcurrency: 2)
    }
    task.cancel()
    await #expect(throws: CryptoError.cancelled) { try await task.value }
  }

  @Test("task cancellation during a run is honoured at the next slice")
  func taskCancellationMidRun() async throws {
    let parameters = try Argon2.Parameters(iterations: 1000, memoryKiB: 64, lanes: 2)
    // The derivation runs in its own task, which cancels itself from the second progress report.
    let task = Task { () -> (reports: Int, error: CryptoError?) in
      var reports = 0
      do throws(CryptoError) {
        _ = try await Argon2.deriveKey(
          password: Self.password, salt: Self.salt, parameters: parameters, maxConcurrency: 2
        ) { _ in
          reports += 1
          if reports == 2 { withUnsafeCurrentTask { $0?.cancel() } }
          return true
        }
        return (reports, nil)
      } catch {
        return (reports, error)
      }
    }
    let outcome = await task.value
    #expect(outcome.error == .cancelled)
    #expect(outcome.reports == 2)
  }

  @Test("bad maxConcurrency is refused")
  func badConcurrency() async throws {
    let parameters = try Argon2.Parameters(iterations: 1, memoryKiB: 64, lanes: 2)
    await #expect(throws: CryptoError.self) {
      try await Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: parameters, maxConcurrency: 0)
    }
  }

  // MARK: Calibration

  @Test("iterations(forTarget:) plans from the pass costs")
  func planning() {
    #expect(
      Argon2.iterations(forTarget: .seconds(1), firstPass: .milliseconds(300), laterPass: .milliseconds(100)) == 8)
    #expect(
      Argon2.iterations(forTarget: .milliseconds(10), firstPass: .milliseconds(300), laterPass: .milliseconds(100)) == 1
    )
    #expect(Argon2.iterations(forTarget: .seconds(1), firstPass: .zero, laterPass: .zero) == 1)
    #expect(
      Argon2.iterations(forTarget: .seconds(1_000_000), firstPass: .zero, laterPass: .nanoseconds(1)) == Int(UInt32.max)
    )
  }

  @Test("calibration times both passes of one run")
  func calibration() throws {
    let sequential = try Argon2.calibrateIterations(memoryKiB: 256, lanes: 1, target: .milliseconds(50))
    #expect(sequential >= 1)
    let timings = try Argon2.measurePasses(memoryKiB: 512, lanes: 2, maxConcurrency: 2)
    #expect(timings.firstPass > .zero && timings.laterPass > .zero)
    // The estimate and the iteration count are inverse to each other (no timing is asserted).
    for iterations in [1, 3, 10] {
      #expect(timings.iterations(forTarget: timings.duration(iterations: iterations)) == iterations)
    }
    #expect(throws: CryptoError.self) {
      try Argon2.measurePasses(memoryKiB: 4, lanes: 1, maxConcurrency: 1)
    }
  }
}

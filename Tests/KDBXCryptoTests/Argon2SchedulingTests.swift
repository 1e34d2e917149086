import Synchronization
import Testing

@testable import KDBXCrypto

/// The `async` Argon2 driver on the cooperative pool: it never spins, so other tasks keep running while it works
/// and more lanes than threads still finish; cancelling it stops it within one slice and zeroes and frees its memory.
/// No timing: progress is observed through counters.
@Suite struct Argon2SchedulingTests {
  static let password = Array("password".utf8)
  static let salt = Array("somesalt".utf8)

  final class Busy: Sendable {
    let ticks = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
  }

  @Test func otherTasksKeepRunningDuringADerivation() async throws {
    let parameters = try Argon2.Parameters(variant: .id, iterations: 2, memoryKiB: 8 * 1024, lanes: 2)
    let state = Busy()
    // As many busy tasks as the pool has threads, and more: each counts and yields until told to stop.
    let busy = (0..<4).map { _ in
      Task.detached {
        while !state.stop.load(ordering: .relaxed) {
          state.ticks.add(1, ordering: .relaxed)
          await Task.yield()
        }
      }
    }
    let seen = Mutex<[Int]>([])
    let tag = try await Argon2.deriveKey(
      password: Self.password, salt: Self.salt, parameters: parameters, maxConcurrency: 2
    ) { _ in
      seen.withLock { $0.append(state.ticks.load(ordering: .relaxed)) }
      return true
    }
    state.stop.store(true, ordering: .relaxed)
    for task in busy { await task.value }
    #expect(tag == (try Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: parameters)))
    let counts = seen.withLock { $0 }
    #expect(counts.count == 8)
    // The busy tasks ran between the first slice's end and the last one's: the lanes left them threads.
    let first = try #require(counts.first)
    let last = try #require(counts.last)
    #expect(last > first, "busy tasks made no progress during the derivation: \(counts)")
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @Test func fourLanesFinishOnAPoolOfTwoThreads() async throws {
    let parameters = try Argon2.Parameters(variant: .id, iterations: 1, memoryKiB: 1024, lanes: 4)
    let expected = try Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: parameters)
    let slices = Mutex(0)
    let tag = try await TwoThreadExecutor.shared.run {
      try await Argon2.deriveKey(
        password: Self.password, salt: Self.salt, parameters: parameters, maxConcurrency: 4
      ) { _ in
        slices.withLock { $0 += 1 }
        return true
      }
    }
    #expect(tag == expected)
    #expect(slices.withLock { $0 } == 4)
  }

  @Test func cancellingAtHalfStopsWithinOneSliceAndZeroesTheMemory() async throws {
    let parameters = try Argon2.Parameters(variant: .id, iterations: 4, memoryKiB: 2048, lanes: 2)
    let observer = Argon2Observer()
    let cancelledAt = Mutex<Int?>(nil)
    let derivation = Task {
      try await Argon2.$observer.withValue(observer) {
        try await Argon2.deriveKey(
          password: Self.password, salt: Self.salt, parameters: parameters, maxConcurrency: 2
        ) { progress in
          if progress.completedSlices == progress.totalSlices / 2 {
            cancelledAt.withLock { $0 = progress.completedSlices }
            withUnsafeCurrentTask { $0?.cancel() }
          }
          return true
        }
      }
    }
    await #expect(throws: CryptoError.cancelled) { try await derivation.value }
    #expect(cancelledAt.withLock { $0 } == 8)
    // No slice started after the one during which the cancellation came (slices 1...8 of 16 ran).
    #expect(observer.slicesStarted == 8)
    #expect(observer.releasedMemoryWasZero == [true])
  }

  @Test func aCompletedDerivationZeroesItsMemoryToo() async throws {
    let parameters = try Argon2.Parameters(variant: .d, iterations: 1, memoryKiB: 1024, lanes: 2)
    let observer = Argon2Observer()
    _ = try await Argon2.$observer.withValue(observer) {
      try await Argon2.deriveKey(password: Self.password, salt: Self.salt, parameters: parameters, maxConcurrency: 2)
    }
    #expect(observer.slicesStarted == 4)
    #expect(observer.releasedMemoryWasZero == [true])
  }
}

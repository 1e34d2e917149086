import KDBXCrypto
import Synchronization
import Testing
import VectorSupport

@testable import KDBX

/// Cancelling an `async` open at half of its Argon2 derivation: it returns ``KDBXError/cancelled`` without starting
/// another slice, and the block memory is zeroed when it is released (observed through the package-scope
/// ``Argon2Observer`` test hook).
@Suite struct CancelledOpenMemoryTests {
  @Test func anOpenCancelledAtHalfStopsWithinOneSliceAndZeroesItsMemory() async throws {
    let key = CompositeKey(password: "pw")
    var random = SplitMix64(seed: 9)
    let database = Database.new(name: "Cancel", clock: VaultSessionTests.clock, random: &random)
    let settings = SaveSettings(
      version: .v4_0, cipher: .chaCha20,
      kdf: .argon2(
        Argon2KDFParameters(
          variant: .id, iterations: 3, memoryBytes: 1 << 20, parallelism: 2, salt: [UInt8](repeating: 3, count: 32))))
    let bytes = try await KDBXFile.save(database, key: key, settings: settings)
    let observer = Argon2Observer()
    let fractions = Mutex<[Double]>([])
    let open = Task {
      try await Argon2.$observer.withValue(observer) {
        try await KDBXFile.open(bytes: bytes, key: key) { fraction in
          fractions.withLock { $0.append(fraction) }
          if fraction >= 0.5 { withUnsafeCurrentTask { $0?.cancel() } }
        }
      }
    }
    await #expect(throws: KDBXError.cancelled) { _ = try await open.value }
    #expect(fractions.withLock { $0 }.last == 0.5)
    #expect(observer.slicesStarted == 6)  // of 12: none after the cancellation
    #expect(observer.releasedMemoryWasZero == [true])
  }
}

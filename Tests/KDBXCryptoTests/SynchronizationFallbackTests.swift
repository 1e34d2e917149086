import KDBXBase
import Testing

@testable import KDBXCrypto

/// Issue #25: on Apple systems without `Synchronization` (before macOS 15 / iOS 18) the synchronous parallel paths
/// fall back to running on the calling thread. The test-only switch forces that fallback here; results must not
/// change, and the switch must reach the code (it is visible through ``SynchronizationSupport/isAvailable``).
@Suite struct SynchronizationFallbackTests {
  @Test func theSwitchForcesTheFallbackForThisTaskOnly() async {
    #expect(SynchronizationSupport.isAvailable, "Linux always has Synchronization")
    SynchronizationSupport.$forcesFallback.withValue(true) {
      #expect(!SynchronizationSupport.isAvailable)
    }
    await SynchronizationSupport.$forcesFallback.withValue(true) {
      await Task.yield()
      #expect(!SynchronizationSupport.isAvailable)
    }
    #expect(SynchronizationSupport.isAvailable)
  }

  @Test func argon2GivesTheSameKeyOnTheFallback() throws {
    let parameters = try Argon2.Parameters(variant: .id, iterations: 2, memoryKiB: 1024, lanes: 4)
    let password = Array("password".utf8)
    let salt = Array("somesalt".utf8)
    let parallel = try Argon2.deriveKey(password: password, salt: salt, parameters: parameters, maxConcurrency: 4)
    var slices = 0
    let fallback = try SynchronizationSupport.$forcesFallback.withValue(true) { () throws(CryptoError) -> [UInt8] in
      try Argon2.deriveKey(password: password, salt: salt, parameters: parameters, maxConcurrency: 4) { _ in
        slices += 1
        return true
      }
    }
    let sequential = try Argon2.deriveKey(password: password, salt: salt, parameters: parameters)
    #expect(fallback == parallel)
    #expect(fallback == sequential)
    #expect(slices == 8, "progress after every slice on the fallback too")
  }

  @Test func parallelWorkGivesTheSameResultsOnTheFallback() {
    let expected = (0..<64).map { $0 * $0 }
    let fallback = SynchronizationSupport.$forcesFallback.withValue(true) {
      ParallelWork.map(count: 64, maxConcurrency: 4) { $0 * $0 }
    }
    #expect(fallback == expected)
    #expect(ParallelWork.map(count: 64, maxConcurrency: 4) { $0 * $0 } == expected)
  }
}

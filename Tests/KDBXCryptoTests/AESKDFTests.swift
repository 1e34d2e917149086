import KDBXCrypto
import Synchronization
import Testing
import VectorSupport

@Suite("AES-KDF")
struct AESKDFTests {
  @Test("KeePass AES-KDF vectors", arguments: Vectors.records("aeskdf/keepass-aeskdf.vec"))
  func vectors(_ record: VectorRecord) async throws {
    let key = record.bytes("key")
    let seed = record.bytes("seed")
    let rounds = UInt64(record.int("rounds"))
    let expected = record.bytes("transformed")
    #expect(try AESKDF.transform(key: key, seed: seed, rounds: rounds) == expected)
    #expect(try await AESKDF.transformConcurrently(key: key, seed: seed, rounds: rounds) == expected)
    #expect(try AESKDF.transform(key: key, seed: seed, rounds: rounds, implementation: .constantTime) == expected)
  }

  @Test("Progress is reported in steps and reaches the total")
  func progress() throws {
    let key = [UInt8](repeating: 7, count: 32)
    let seed = [UInt8](repeating: 8, count: 32)
    var calls: [UInt64] = []
    let result = try AESKDF.transform(key: key, seed: seed, rounds: 2500, progressInterval: 1000) { done, total in
      #expect(total == 2500)
      calls.append(done)
      return true
    }
    #expect(calls == [1000, 2000, 2500])
    #expect(result == (try AESKDF.transform(key: key, seed: seed, rounds: 2500)))
  }

  @Test("Returning false from progress cancels, sequential and concurrent")
  func cancellation() async throws {
    let key = [UInt8](repeating: 7, count: 32)
    let seed = [UInt8](repeating: 8, count: 32)
    var calls = 0
    #expect(throws: CryptoError.cancelled) {
      _ = try AESKDF.transform(key: key, seed: seed, rounds: 60_000_000, progressInterval: 1000) { _, _ in
        calls += 1
        return calls < 3
      }
    }
    #expect(calls == 3)
    let counter = Atomic<Int>(0)
    await #expect(throws: CryptoError.cancelled) {
      _ = try await AESKDF.transformConcurrently(key: key, seed: seed, rounds: 60_000_000, progressInterval: 1000) {
        _, _ in counter.add(1, ordering: .relaxed).newValue < 3
      }
    }
  }

  @Test("Cancelling the task stops the concurrent transform")
  func taskCancellation() async throws {
    let key = [UInt8](repeating: 7, count: 32)
    let seed = [UInt8](repeating: 8, count: 32)
    let task = Task {
      try await AESKDF.transformConcurrently(key: key, seed: seed, rounds: 60_000_000, progressInterval: 1000)
    }
    task.cancel()
    await #expect(throws: CryptoError.cancelled) { _ = try await task.value }
  }

  @Test("Bad key and seed sizes throw")
  func badSizes() {
    #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 31)) {
      _ = try AESKDF.transform(key: [UInt8](repeating: 0, count: 31), seed: [UInt8](repeating: 0, count: 32), rounds: 1)
    }
    #expect(throws: CryptoError.self) {
      _ = try AESKDF.transform(key: [UInt8](repeating: 0, count: 32), seed: [UInt8](repeating: 0, count: 16), rounds: 1)
    }
  }
}

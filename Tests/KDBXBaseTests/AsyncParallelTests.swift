import KDBXBase
import Synchronization
import Testing

/// `runInParallel`, the `async` Argon2 driver's round runner: every item runs exactly once and its writes are
/// visible when it returns, with helpers claiming items (Synchronization) and on the task-group fallback, also
/// when the pool is busy with other callers (then the calling task runs what no helper started).
@Suite("Parallel work for async callers")
struct AsyncParallelTests {
  @Test("every item runs exactly once", arguments: [false, true])
  func everyItemOnce(fallback: Bool) async {
    for maxConcurrency in [1, 2, 4] {
      for count in [0, 1, 2, 3, 5, 64] {
        let runs = Mutex([Int](repeating: 0, count: count))
        await SynchronizationSupport.$forcesFallback.withValue(fallback) {
          await runInParallel(count: count, maxConcurrency: maxConcurrency) { item in
            runs.withLock { $0[item] += 1 }
          }
        }
        #expect(runs.withLock { $0 } == [Int](repeating: 1, count: count), "count \(count), \(maxConcurrency)")
      }
    }
  }

  @Test("many callers on a busy pool all finish")
  func busyPool() async {
    let totals = await withTaskGroup(of: Int.self) { group in
      for caller in 0..<8 {
        group.addTask {
          let slots = Mutex([Int](repeating: 0, count: 16))
          await runInParallel(count: 16, maxConcurrency: 4) { item in
            slots.withLock { $0[item] = caller * 100 + item }
          }
          return slots.withLock { $0.reduce(0, +) }
        }
      }
      var all: [Int] = []
      for await total in group { all.append(total) }
      return all.sorted()
    }
    #expect(totals == (0..<8).map { caller in (0..<16).reduce(0) { $0 + caller * 100 + $1 } })
  }
}

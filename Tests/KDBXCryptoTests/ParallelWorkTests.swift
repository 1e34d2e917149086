import KDBXCrypto
import Synchronization
import Testing

@Suite("Parallel work for synchronous callers")
struct ParallelWorkTests {
  @Test("map returns every result in index order", arguments: [1, 2, 3, 8])
  func mapKeepsOrder(maxConcurrency: Int) {
    for count in [0, 1, 2, 5, 64] {
      let results = ParallelWork.map(count: count, maxConcurrency: maxConcurrency) { index in index * index }
      #expect(results == (0..<count).map { $0 * $0 })
    }
  }

  @Test("forEach runs each item exactly once")
  func forEachRunsOnce() {
    let counts = Mutex([Int](repeating: 0, count: 100))
    ParallelWork.forEach(count: 100, maxConcurrency: 4) { index in
      counts.withLock { $0[index] += 1 }
    }
    #expect(counts.withLock { $0 } == [Int](repeating: 1, count: 100))
  }

  @Test("works from inside a task without deadlocking", arguments: [2, 16])
  func fromTasks(maxConcurrency: Int) async {
    // Several tasks that each block on parallel work: the pool may be fully occupied, so callers must be able
    // to finish their items alone.
    let sums = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          ParallelWork.map(count: 32, maxConcurrency: maxConcurrency) { $0 }.reduce(0, +)
        }
      }
      var sums: [Int] = []
      for await sum in group { sums.append(sum) }
      return sums
    }
    #expect(sums == [Int](repeating: 496, count: 8))
  }
}

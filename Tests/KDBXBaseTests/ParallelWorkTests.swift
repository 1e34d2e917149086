import KDBXBase
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

  @Test("started work runs exactly once and gives its value, in any order of collection")
  func startedWorkRunsOnce() {
    let runs = Mutex([Int](repeating: 0, count: 40))
    let started = (0..<40).map { index in
      ParallelWork.start {
        runs.withLock { $0[index] += 1 }
        return index * 3
      }
    }
    // Collected backwards: some items have run on a helper, others run here.
    for index in (0..<40).reversed() { #expect(started[index].result() == index * 3) }
    #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 40))
    // Collecting again gives the value without running the work again.
    #expect(started[7].result() == 21)
    #expect(started.allSatisfy { $0.isFinished })
    #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 40))
  }

  @Test("started work runs in result() on the fallback path")
  func startedWorkFallback() {
    SynchronizationSupport.$forcesFallback.withValue(true) {
      let runs = Mutex(0)
      let work = ParallelWork.start {
        runs.withLock { $0 += 1 }
        return "done"
      }
      #expect(!work.isFinished)
      #expect(runs.withLock { $0 } == 0)
      #expect(work.result() == "done")
      #expect(runs.withLock { $0 } == 1)
    }
  }

  @Test("finished work gives its value without running anything")
  func finishedWork() {
    let work = StartedWork(value: [1, 2, 3])
    #expect(work.result() == [1, 2, 3])
    #expect(work.result() == [1, 2, 3])
  }

  @Test("deferred work runs only when its result is asked for")
  func deferredWork() {
    let runs = Mutex(0)
    let work = StartedWork(deferred: {
      runs.withLock { $0 += 1 }
      return 42
    })
    #expect(!work.isFinished)
    #expect(runs.withLock { $0 } == 0)
    #expect(work.result() == 42)
    #expect(runs.withLock { $0 } == 1)
  }

  @Test("started work collected from a task on a busy pool", arguments: [8])
  func startedWorkFromTasks(tasks: Int) async {
    let sums = await withTaskGroup(of: Int.self) { group in
      for task in 0..<tasks {
        group.addTask {
          let started = (0..<16).map { index in ParallelWork.start { task * 100 + index } }
          return started.reduce(0) { $0 + $1.result() }
        }
      }
      var all: [Int] = []
      for await sum in group { all.append(sum) }
      return all.sorted()
    }
    #expect(sums == (0..<tasks).map { task in (0..<16).reduce(0) { $0 + task * 100 + $1 } }.sorted())
  }
}

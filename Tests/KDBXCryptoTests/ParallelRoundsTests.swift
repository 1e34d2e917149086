import Synchronization
import Testing

@testable import KDBXCrypto

@Suite("Rounds of parallel work with lasting helpers")
struct ParallelRoundsTests {
  /// Records, for each round, which items ran and how many items of other rounds were running meanwhile.
  final class Log: Sendable {
    let ran = Mutex<[[Int]]>([])
    let running = Mutex<(round: Int, count: Int)>((-1, 0))
    let overlaps = Mutex(0)

    init(rounds: Int) { ran.withLock { $0 = [[Int]](repeating: [], count: rounds) } }

    func item(_ round: Int, _ item: Int) {
      running.withLock { state in
        if state.count > 0 && state.round != round { overlaps.withLock { $0 += 1 } }
        state = (round, state.count + 1)
      }
      // Some work, so that items of one round overlap.
      var x = UInt64(item)
      for _ in 0..<(2_000 * (item % 3 + 1)) { x = x &* 6_364_136_223_846_793_005 &+ 1 }
      ran.withLock { $0[round].append(item + Int(x & 0)) }
      running.withLock { $0.count -= 1 }
    }
  }

  @Test("every item of every round runs once, and rounds never overlap", arguments: [1, 2, 3, 8])
  func roundsInOrder(maxConcurrency: Int) {
    let rounds = 40
    let log = Log(rounds: rounds)
    var seen: [Int] = []
    ParallelRounds(
      maxItemCount: 6, itemCount: { round in round % 6 + 1 }, body: { round, item in log.item(round, item) },
      maxConcurrency: maxConcurrency
    ).run(rounds: rounds) { (round: Int) throws(Never) in
      seen.append(round)
      // Every item of this round has finished when the caller hears of it.
      #expect(log.ran.withLock { $0[round].count } == round % 6 + 1)
    }
    #expect(seen == Array(0..<rounds))
    #expect(log.ran.withLock { $0 }.enumerated().allSatisfy { $1.sorted() == Array(0..<($0 % 6 + 1)) })
    #expect(log.overlaps.withLock { $0 } == 0)
  }

  @Test("rounds still complete when the helpers give up between them")
  func helpersComeBack() {
    let rounds = 6
    let log = Log(rounds: rounds)
    var runner = ParallelRounds(
      maxItemCount: 4, itemCount: { _ in 4 }, body: { round, item in log.item(round, item) }, maxConcurrency: 4)
    runner.helperPatience = .microseconds(1)
    runner.run(rounds: rounds) { (_: Int) throws(Never) in
      // Longer than the patience: the helpers end before the next round.
      let clock = ContinuousClock()
      let start = clock.now
      while clock.now - start < .milliseconds(2) {}
    }
    #expect(log.ran.withLock { $0 }.allSatisfy { $0.sorted() == [0, 1, 2, 3] })
  }

  @Test("works from inside tasks that fill the executor, without deadlocking")
  func fromTasks() async {
    // Every thread of the pool may be blocked in a caller, so callers must be able to finish their rounds alone.
    let sums = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          let total = Mutex(0)
          ParallelRounds(
            maxItemCount: 4, itemCount: { _ in 4 }, body: { round, item in total.withLock { $0 += round * 4 + item } },
            maxConcurrency: 4
          ).run(rounds: 8) { (_: Int) throws(Never) in }
          return total.withLock { $0 }
        }
      }
      var sums: [Int] = []
      for await sum in group { sums.append(sum) }
      return sums
    }
    #expect(sums == [Int](repeating: (0..<32).reduce(0, +), count: 8))
  }

  struct Stop: Error, Equatable {}

  @Test("an error after a round stops the rounds and is rethrown")
  func errorStops() {
    let log = Log(rounds: 10)
    #expect(throws: Stop()) {
      try ParallelRounds(
        maxItemCount: 3, itemCount: { _ in 3 }, body: { round, item in log.item(round, item) }, maxConcurrency: 3
      ).run(rounds: 10) { (round: Int) throws(Stop) in
        if round == 4 { throw Stop() }
      }
    }
    let ran = log.ran.withLock { $0 }
    #expect(ran[0..<5].allSatisfy { $0.count == 3 })
    #expect(ran[5...].allSatisfy { $0.isEmpty })
  }
}

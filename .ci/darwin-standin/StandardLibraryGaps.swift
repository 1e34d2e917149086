// What the full standard library has and the Embedded one that the Darwin stand-in check compiles against lacks
// (see ../darwin-check.sh): declared with the full library's signatures, so code that uses them type-checks.
// Imported implicitly into every checked file (-import-module). Never run.
import Synchronization

public struct ContinuousClock: Sendable {
  public struct Instant: Sendable, Comparable {
    public static func < (lhs: Instant, rhs: Instant) -> Bool { false }
    public func duration(to other: Instant) -> Duration { .zero }
    public func advanced(by duration: Duration) -> Instant { self }
    public static func + (lhs: Instant, rhs: Duration) -> Instant { lhs }
    public static func - (lhs: Instant, rhs: Instant) -> Duration { .zero }
  }
  public init() {}
  public var now: Instant { Instant() }
  public func measure<E: Error>(_ work: () throws(E) -> Void) throws(E) -> Duration {
    try work()
    return .zero
  }
}

@available(iOS 18, *)
public struct Mutex<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
  public init(_ initialValue: consuming sending Value) { fatalError() }
  public borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result { fatalError() }
}

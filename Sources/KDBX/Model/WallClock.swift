/// The source of "now" for the model (modification and access times), injected so that saves are reproducible in
/// tests. The library never reads the system clock itself.
public protocol WallClock {
  /// The current time.
  func now() -> Timestamp
}

/// A clock that always returns the same time, for tests and reproducible saves.
public struct FixedClock: WallClock, Sendable {
  public var time: Timestamp

  public init(_ time: Timestamp) { self.time = time }

  public func now() -> Timestamp { time }
}

/// The source of "now" for the model (modification and access times), injected so that saves are reproducible in
/// tests. The library never reads the system clock itself.
///
/// The app's clock, passed to every edit:
///
/// ```swift
/// struct SystemClock: WallClock {
///   func now() -> Timestamp { Timestamp(unixSeconds: currentUnixTime()) }
/// }
/// database.editEntry(entry.uuid, clock: SystemClock()) { $0.title = "Mail" }
/// ```
public protocol WallClock {
  /// The current time.
  func now() -> Timestamp
}

/// A clock that always returns the same time, for tests and reproducible saves.
///
/// ```swift
/// let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))  // the same times in every test run
/// var random = SystemRandomNumberGenerator()
/// let database = Database.new(name: "Test", clock: clock, random: &random)
/// ```
public struct FixedClock: WallClock, Sendable {
  public var time: Timestamp

  public init(_ time: Timestamp) { self.time = time }

  public func now() -> Timestamp { time }
}

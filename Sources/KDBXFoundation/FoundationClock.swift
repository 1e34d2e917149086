import Foundation
import KDBX

/// The ``KDBX/WallClock`` of a Foundation app: the current `Date()`, to the second (``KDBX/Timestamp/init(_:)``).
/// Edits, deletions and merges take a clock to stamp times and history.
public struct FoundationClock: WallClock, Sendable {
  public init() {}

  /// The current time, rounded down to the second.
  public func now() -> Timestamp { Timestamp(Date()) }
}

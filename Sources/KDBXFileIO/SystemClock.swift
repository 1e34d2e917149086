import KDBX

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system's wall clock (`clock_gettime(CLOCK_REALTIME)`), for the modification and access times every edit
/// records. The `KDBX` module never reads the clock itself (it takes a ``KDBX/WallClock``, so that saves are
/// reproducible in tests); apps pass this one.
///
/// The system random source is the standard library's `SystemRandomNumberGenerator` (`getrandom`/`arc4random`),
/// which every call that makes UUIDs, pads or seeds takes as `random:`.
public struct SystemClock: WallClock, Sendable {
  public init() {}

  /// Now, to the second (KDBX stores whole seconds).
  public func now() -> Timestamp {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Timestamp(unixSeconds: Int64(spec.tv_sec))
  }
}

/// Key material in memory that is overwritten with zeros when it is released.
///
/// The bytes live in one heap allocation owned by this object (not in an `Array`, which may be copied on write and
/// leave the old copies behind). When the last reference goes away, `deinit` zeroes the allocation through a
/// non-inlined, unoptimized function, so the compiler cannot drop the stores as dead, and only then frees it.
/// The object never changes after it is made, so it can be shared between tasks.
///
/// What this does not cover: copies that leave the object on purpose (``bytes``, or the `[UInt8]` a caller passed
/// in), registers and stack slots the compiler used while hashing or encrypting, pages the operating system swapped
/// out or wrote to a core dump. Callers that must hand the bytes to an `Array` API call ``wipe(_:)`` on the
/// array when done; see the README's security section for the full list.
///
/// ```swift
/// var derived = kdf(password)              // [UInt8] from an API that returns an array
/// let key = SecureBytes(consuming: &derived) // copied in; `derived` is zeroed
/// key.withUnsafeBytes { hasher.update($0) }
/// ```
// SAFETY: `@unchecked Sendable`: the storage is immutable after init (see the note on `storage`).
public final class SecureBytes: @unchecked Sendable {
  // SAFETY: @unchecked Sendable because `storage` is written only in `init` (before `self` is shared) and
  // read-only afterwards; `deinit` runs when no other reference exists. `storage` is this object's own allocation
  // (max(count, 1) bytes, 16-aligned, zero-initialised by allocateZeroed), freed only in `deinit`.
  let storage: UnsafeMutableRawBufferPointer
  /// The number of bytes held.
  public let count: Int
  let releaseObserver: (@Sendable (UnsafeMutableRawBufferPointer) -> Void)?

  /// Copies `bytes` in. The caller's array is left as it is (see ``init(consuming:)``).
  // SAFETY: the copy reads the array's own bytes inside its closure; SecureBytes.copy checks they fit
  // (precondition) in `destination`, which holds exactly bytes.count bytes.
  public convenience init(_ bytes: [UInt8]) {
    self.init(count: bytes.count, releaseObserver: nil) { destination in
      bytes.withUnsafeBytes { SecureBytes.copy($0, to: destination) }
    }
  }

  /// Copies `bytes` in and then zeroes the caller's array (see ``wipe(_:)`` for what that can and cannot reach).
  public convenience init(consuming bytes: inout [UInt8]) {
    self.init(bytes)
    Self.wipe(&bytes)
  }

  /// Makes `count` bytes and lets `initializer` write them (they start as zeros).
  // SAFETY: the initializer gets the new storage's first `count` bytes (already zero) for the call only;
  // it is non-escaping, and the documented contract is that the pointer does not outlive it.
  public convenience init(count: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) -> Void) {
    self.init(count: count, releaseObserver: nil, initializer)
  }

  /// Testing only: like ``init(_:)``, but on release the zeroed allocation is handed to `releaseObserver` instead
  /// of being freed; the observer owns it (it may read it, and must deallocate it).
  @_spi(Testing)
  public convenience init(
    // SAFETY: as init(_:); the observer takes ownership of the zeroed allocation in deinit (tests only).
    _ bytes: [UInt8], releaseObserver: @escaping @Sendable (UnsafeMutableRawBufferPointer) -> Void
  ) {
    self.init(count: bytes.count, releaseObserver: releaseObserver) { destination in
      bytes.withUnsafeBytes { SecureBytes.copy($0, to: destination) }
    }
  }

  init(
    // SAFETY: count >= 0 is checked before allocating; `storage` has max(count, 1) >= count bytes, so the
    // rebased slice 0..<count lies inside it. The initializer runs before `self` can be shared.
    count: Int, releaseObserver: (@Sendable (UnsafeMutableRawBufferPointer) -> Void)?,
    _ initializer: (UnsafeMutableRawBufferPointer) -> Void
  ) {
    precondition(count >= 0, "negative byte count")
    self.count = count
    self.storage = Self.allocateZeroed(count)
    self.releaseObserver = releaseObserver
    initializer(UnsafeMutableRawBufferPointer(rebasing: storage[0..<count]))
  }

  deinit {
    Self.zero(storage)
    if let releaseObserver { releaseObserver(storage) } else { storage.deallocate() }
  }

  /// Calls `body` with the bytes; the pointer must not escape the call.
  // SAFETY: `self` (and so `storage`) is kept alive by the caller for the call; the first `count` bytes
  // are initialised (zeroed, then written by the initializer) and lent for `body` only, read-only.
  public func withUnsafeBytes<Result, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
  }

  /// A copy of the bytes as an array, for APIs that take `[UInt8]`. The copy is not protected: zero it with
  /// ``wipe(_:)`` when done.
  public var bytes: [UInt8] {
    // SAFETY: copies the bytes inside the closure; no pointer escapes.
    withUnsafeBytes { Array($0) }
  }

  /// Whether both hold the same bytes, compared in constant time (`ConstantTime.equals`).
  public func hasSameBytes(as other: SecureBytes) -> Bool {
    // SAFETY: both read inside the closures only; ConstantTime.equals compares the counts first.
    withUnsafeBytes { mine in other.withUnsafeBytes { theirs in ConstantTime.equals(mine, theirs) } }
  }

  /// Overwrites the array's elements with zeros, in place, through the same barrier as `deinit`.
  ///
  /// Swift gives no way to reach other copies: if the array's storage is shared with another array value, Swift
  /// copies it before the write (copy on write) and only the fresh copy is zeroed; earlier buffers the array
  /// outgrew are already freed without being zeroed.
  public static func wipe(_ bytes: inout [UInt8]) {
    // SAFETY: zero writes each index below the array's own count, inside the closure.
    bytes.withUnsafeMutableBytes { zero($0) }
  }
}

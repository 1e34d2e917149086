/// Constant-time comparison helpers.
///
/// The running time depends only on the lengths of the inputs, never on their contents, so a
/// MAC or hash check does not reveal how many leading bytes matched.
public enum ConstantTime {
  /// Returns `true` when `a` and `b` have the same length and the same bytes.
  ///
  /// The loop always visits every byte; a length mismatch returns early because lengths are public.
  @inline(never)
  public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<a.count {
      difference |= a[index] ^ b[index]
    }
    return difference == 0
  }

  /// Returns `true` when the two buffers have the same length and the same bytes, in constant time.
  @inline(never)
  // SAFETY: both buffers are lent for the call; the counts are compared first, so `index < a.count == b.count`
  // keeps every read in bounds (and an empty buffer with a nil base is never read).
  public static func equals(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<a.count {
      difference |= a[index] ^ b[index]
    }
    return difference == 0
  }
}

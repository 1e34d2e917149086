import KDBX

/// Base-2 logarithms without a C library: for entropy figures (bits) of generated passwords and strength
/// estimates.
package enum Log2 {
  /// log2(`value`) for `value` > 0 (0 otherwise): the integer part by halving or doubling, the fraction bit by bit
  /// by repeated squaring (52 bits, the precision of a `Double`).
  package static func of(_ value: Double) -> Double {
    guard value > 0, value.isFinite else { return 0 }
    var x = value
    var result = 0.0
    while x >= 2 {
      x /= 2
      result += 1
    }
    while x < 1 {
      x *= 2
      result -= 1
    }
    var bit = 0.5
    for _ in 0..<52 {
      x *= x
      if x >= 2 {
        x /= 2
        result += bit
      }
      bit /= 2
    }
    return result
  }

  /// log10(`value`), from ``of(_:)``.
  package static func log10(_ value: Double) -> Double {
    of(value) / 3.321928094887362
  }
}

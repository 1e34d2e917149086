import KDBXBase

/// The tests' pseudo-random generator: SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014; the constants of Vigna's reference `splitmix64.c`), one definition for every test
/// target. Seeded, so every run draws the same values; never for keys or anything secret.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The library's generator (`SelfTestPattern` in KDBXBase), which this one wraps for the tests.
  private var pattern: SelfTestPattern
  /// A generator whose first state is `seed`.
  public init(seed: UInt64) { pattern = SelfTestPattern(seed: seed) }
  /// The next 64 bits.
  public mutating func next() -> UInt64 { pattern.next() }

  /// `count` bytes, eight from each output (least significant first).
  public mutating func bytes(_ count: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    var index = 0
    while index < count {
      var word = next()
      for _ in 0..<8 where index < count {
        out[index] = UInt8(truncatingIfNeeded: word)
        word >>= 8
        index += 1
      }
    }
    return out
  }

  /// Text-like bytes: words from a small vocabulary with spaces and newlines, so that both
  /// matches and literals occur.
  public mutating func text(_ count: Int) -> [UInt8] {
    let words = [
      "entry", "group", "password", "UserName", "<String>", "</String>", "Value", "Key", "Times",
      "2026-11-30T22:30:00Z",
      "true", "false", "kdbx", "deflate", "gzip", "Notes", "URL", "https://example.org/", "Title", "AutoType",
    ].map { Array($0.utf8) }
    var out: [UInt8] = []
    out.reserveCapacity(count + 32)
    while out.count < count {
      let choice = Int(next() % 40)
      if choice < words.count {
        out += words[choice]
      } else {
        out.append(UInt8(truncatingIfNeeded: 0x61 + next() % 26))
      }
      out.append(next() % 8 == 0 ? 0x0A : 0x20)
    }
    return Array(out[0..<count])
  }
}

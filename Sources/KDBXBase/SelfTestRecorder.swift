// What every module's known-answer self-test shares: the record of one check, the recorder that collects them
// (with a test-only fault), and the fixed pseudo-random inputs. `KDBXCrypto`'s `SelfTestReport`, the public face
// of a run, is made from the recorder's checks.

/// One known-answer check: what was checked, where the expected value comes from, the expected and the actual
/// output, and what was thrown instead of an output. Nothing in it is secret (published vectors and fixed
/// pseudo-random patterns only).
package struct SelfTestCheck: Sendable, Equatable {
  package var primitive: String
  package var source: String
  package var expected: [UInt8]
  package var actual: [UInt8]
  package var error: String?
}

/// A test-only fault: the output of one primitive has one bit flipped before it is compared, as a miscompiled
/// kernel would produce. Used by the tests to prove that a failure is reported, and reported against exactly
/// that primitive.
package struct SelfTestFault: Sendable, Equatable {
  /// The primitive (``SelfTestCheck/primitive``) whose output is corrupted.
  package var primitive: String
  /// The bit to flip, counted from the first byte's least significant bit (taken modulo the output's size).
  package var bit: Int

  package init(primitive: String, bit: Int = 0) {
    self.primitive = primitive
    self.bit = bit
  }
}

/// Collects checks in the order they ran and applies a ``SelfTestFault`` when one is set.
package struct SelfTestRecorder: Sendable {
  package var fault: SelfTestFault?
  package private(set) var checks: [SelfTestCheck] = []

  package init(fault: SelfTestFault? = nil) { self.fault = fault }

  /// Records the output `actual` of `primitive`, flipping the fault's bit first when the fault names it.
  package mutating func record(
    _ primitive: String, _ source: String, expected: [UInt8], actual: [UInt8], error: String? = nil
  ) {
    var output = actual
    if let fault, fault.primitive == primitive, error == nil {
      if output.isEmpty { output = [0] }
      let bit = ((fault.bit % (output.count * 8)) + output.count * 8) % (output.count * 8)
      output[bit / 8] ^= UInt8(1) << UInt8(bit % 8)
    }
    checks.append(
      SelfTestCheck(primitive: primitive, source: source, expected: expected, actual: output, error: error))
  }
}

/// A deterministic SplitMix64 generator (Steele, Lea and Flood, OOPSLA 2014; the constants of Vigna's reference
/// `splitmix64.c`): the fixed pseudo-random inputs on which fast kernels are compared with their reference paths
/// (the same input on every run and every platform), and the one definition of the generator that the tests'
/// `SplitMix64` and the benchmarks' inputs draw from. Never for keys or anything secret.
package struct SelfTestPattern: RandomNumberGenerator, Sendable {
  package var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }

  package mutating func bytes(_ count: Int) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(max(0, count))
    while out.count < count { out.append(UInt8(truncatingIfNeeded: next())) }
    return out
  }

  /// Text-like bytes with repeats (for compression): words drawn from `words`, or, one time in four, a lowercase
  /// letter. The default words are fragments of a KeePass document.
  package mutating func text(_ count: Int, words: [[UInt8]] = SelfTestPattern.documentWords) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(max(0, count))
    while out.count < count {
      let value = next()
      if value & 3 == 0 || words.isEmpty {
        out.append(UInt8(ascii: "a") + UInt8(truncatingIfNeeded: (value >> 8) % 26))
      } else {
        out.append(contentsOf: words[Int(truncatingIfNeeded: (value >> 8) % UInt64(words.count))])
      }
    }
    return Array(out.prefix(count))
  }

  /// Fragments of a KeePass document, for ``text(_:words:)``.
  package static let documentWords: [[UInt8]] = [
    Array("<Entry>".utf8), Array("</Entry>".utf8), Array("<String><Key>Title</Key>".utf8),
    Array("<Value>".utf8), Array("</Value></String>".utf8), Array("password".utf8), Array("KeePass".utf8),
    Array("\n\t\t".utf8), Array("2026-12-02T04:00:00Z".utf8),
  ]
}

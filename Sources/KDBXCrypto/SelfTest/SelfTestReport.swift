/// The outcome of one known-answer check of the self-test (see ``SelfTest``).
///
/// A check runs one primitive on fixed input and compares the output with a value from a named source (an RFC
/// section, a NIST file, a KeePass file kept in `Vectors/`), or compares a fast kernel with the library's reference
/// path on fixed pseudo-random input. Nothing in a result is secret: every input is a published test vector or a
/// fixed pseudo-random pattern.
public struct SelfTestResult: Sendable, Equatable {
  /// A short, stable name for what was checked, for example `sha256` or `aes-256-blocks`.
  public let primitive: String
  /// Where the expected value comes from, for example `FIPS 180-4 B.1 ("abc")`.
  public let source: String
  /// The expected output.
  public let expected: [UInt8]
  /// The output the primitive produced (empty when it threw).
  public let actual: [UInt8]
  /// What the primitive threw instead of producing output, or `nil`.
  public let error: String?

  /// Creates a result.
  public init(primitive: String, source: String, expected: [UInt8], actual: [UInt8], error: String? = nil) {
    self.primitive = primitive
    self.source = source
    self.expected = expected
    self.actual = actual
    self.error = error
  }

  /// Whether the primitive produced exactly the expected output.
  public var passed: Bool { error == nil && !expected.isEmpty && expected == actual }

  /// The expected output in lowercase hexadecimal.
  public var expectedHex: String { SelfTestResult.hex(expected) }
  /// The actual output in lowercase hexadecimal.
  public var actualHex: String { SelfTestResult.hex(actual) }

  /// Lowercase hexadecimal of `bytes`.
  public static func hex(_ bytes: [UInt8]) -> String {
    let digits: [UInt8] = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 15)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The bytes of a hexadecimal string; `[]` when it is not hexadecimal (the check then fails, it never traps).
  package static func bytes(hex text: String) -> [UInt8] {
    var out: [UInt8] = []
    var high: UInt8? = nil
    for character in text.utf8 {
      let value: UInt8
      switch character {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
      default: return []
      }
      if let first = high {
        out.append(first << 4 | value)
        high = nil
      } else {
        high = value
      }
    }
    return high == nil ? out : []
  }
}

/// What a self-test run found: one ``SelfTestResult`` per check, in the order they ran.
public struct SelfTestReport: Sendable {
  /// Every check, passed or failed.
  public let results: [SelfTestResult]

  /// Creates a report from results.
  public init(results: [SelfTestResult]) { self.results = results }

  /// Whether every check passed (and at least one ran).
  public var passed: Bool {
    guard !results.isEmpty else { return false }
    for result in results where !result.passed { return false }
    return true
  }

  /// The checks that failed.
  public var failures: [SelfTestResult] { results.filter { !$0.passed } }

  /// The names of the primitives whose checks failed, each once, in order.
  public var failedPrimitives: [String] {
    var names: [String] = []
    for result in results where !result.passed && !names.contains(result.primitive) {
      names.append(result.primitive)
    }
    return names
  }
}

/// A test-only fault: the output of one primitive has one bit flipped before it is compared, as a miscompiled
/// kernel would produce. Used by the tests to prove that a failure is reported, and reported against exactly
/// that primitive.
package struct SelfTestFault: Sendable, Equatable {
  /// The ``SelfTestResult/primitive`` whose output is corrupted.
  package var primitive: String
  /// The bit to flip, counted from the first byte's least significant bit (taken modulo the output's size).
  package var bit: Int

  package init(primitive: String, bit: Int = 0) {
    self.primitive = primitive
    self.bit = bit
  }
}

/// Collects results and applies a ``SelfTestFault`` when one is set.
package struct SelfTestRecorder: Sendable {
  package var fault: SelfTestFault?
  package private(set) var results: [SelfTestResult] = []

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
    results.append(
      SelfTestResult(primitive: primitive, source: source, expected: expected, actual: output, error: error))
  }

  /// Runs `body` and records its output; a thrown error is recorded as a failure.
  package mutating func check(
    _ primitive: String, _ source: String, expected: [UInt8], _ body: () throws(CryptoError) -> [UInt8]
  ) {
    do {
      let output = try body()
      record(primitive, source, expected: expected, actual: output)
    } catch {
      record(primitive, source, expected: expected, actual: [], error: error.selfTestDescription)
    }
  }

  /// The report of everything recorded.
  package var report: SelfTestReport { SelfTestReport(results: results) }
}

/// A deterministic SplitMix64 generator: the fixed pseudo-random inputs on which fast kernels are compared with
/// their reference paths (the same input on every run and every platform).
package struct SelfTestPattern: Sendable {
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

  /// Text-like bytes with repeats (for compression): words drawn from a small alphabet of fragments.
  package mutating func text(_ count: Int) -> [UInt8] {
    let words: [[UInt8]] = [
      Array("<Entry>".utf8), Array("</Entry>".utf8), Array("<String><Key>Title</Key>".utf8),
      Array("<Value>".utf8), Array("</Value></String>".utf8), Array("password".utf8), Array("KeePass".utf8),
      Array("\n\t\t".utf8), Array("2026-12-02T04:00:00Z".utf8),
    ]
    var out: [UInt8] = []
    out.reserveCapacity(max(0, count))
    while out.count < count {
      let value = next()
      if value & 3 == 0 {
        out.append(UInt8(ascii: "a") + UInt8(truncatingIfNeeded: (value >> 8) % 26))
      } else {
        out.append(contentsOf: words[Int(truncatingIfNeeded: (value >> 8) % UInt64(words.count))])
      }
    }
    return Array(out.prefix(count))
  }
}

extension CryptoError {
  /// A short description for a self-test report (no secrets: the errors carry none).
  package var selfTestDescription: String {
    switch self {
    case .invalidKeySize(let expected, let actual): return "invalid key size \(actual) (expected \(expected))"
    case .invalidNonceSize(let expected, let actual): return "invalid nonce size \(actual) (expected \(expected))"
    case .invalidCiphertextLength(let count): return "invalid ciphertext length \(count)"
    case .invalidPadding: return "invalid padding"
    case .invalidParameter(let name, let reason): return "invalid parameter \(name): \(reason)"
    case .memoryLimitExceeded(let required, let limit): return "needs \(required) bytes, limit \(limit)"
    case .memoryUnavailable(let required): return "\(required) bytes of memory unavailable"
    case .counterOverflow: return "counter overflow"
    case .cancelled: return "cancelled"
    }
  }
}

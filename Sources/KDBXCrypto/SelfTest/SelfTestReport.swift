import KDBXBase

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
  public var expectedHex: String { Hex.encode(expected) }
  /// The actual output in lowercase hexadecimal.
  public var actualHex: String { Hex.encode(actual) }

  /// The result of a check recorded by a module's self-test.
  package init(_ check: SelfTestCheck) {
    self.init(
      primitive: check.primitive, source: check.source, expected: check.expected, actual: check.actual,
      error: check.error)
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

extension SelfTestRecorder {
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
  package var report: SelfTestReport { SelfTestReport(results: checks.map(SelfTestResult.init)) }
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

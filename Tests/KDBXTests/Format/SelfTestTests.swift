import KDBX
import KDBXBase
import KDBXCrypto
import Testing

@Suite("Known-answer self-test")
struct SelfTestTests {
  /// The primitives the issue asks the self-test to cover (#27), by the names the report uses.
  static let required = [
    "sha1", "sha256", "sha512", "hmac-sha1", "hmac-sha256", "hmac-sha512", "aes-256", "aes-256-ct", "cbc-aes-256",
    "twofish", "chacha20", "salsa20", "blake2b", "argon2d", "argon2id", "aes-kdf", "inflate", "deflate", "crc32",
    "xml-reader", "xml-writer", "kdbx4-open",
    // fast kernels against reference paths
    "aes-256-blocks", "aes-256-ct-blocks", "cbc-aes-256-kernel", "cbc-twofish-kernel", "chacha20-kernel",
    "salsa20-kernel", "sha256-blocks", "crc32-tables", "aes-kdf-ct", "base64-encode", "base64-decode",
  ]

  @Test func everyCheckPasses() {
    let report = KDBXSelfTest.run()
    for failure in report.failures {
      Issue.record(
        "\(failure.primitive) (\(failure.source)): expected \(failure.expectedHex), got \(failure.actualHex) \(failure.error ?? "")"
      )
    }
    #expect(report.passed)
    let names = report.results.map(\.primitive)
    #expect(Set(names).count == names.count, "primitive names are unique")
    for name in Self.required { #expect(names.contains(name), "missing \(name)") }
    for result in report.results {
      #expect(!result.source.isEmpty && !result.expected.isEmpty, "\(result.primitive)")
    }
  }

  @Test func cryptoAloneIsASubset() {
    let crypto = SelfTest.run()
    #expect(crypto.passed)
    let all = KDBXSelfTest.run().results.map(\.primitive)
    #expect(crypto.results.allSatisfy { all.contains($0.primitive) })
    #expect(!crypto.results.contains { $0.primitive == "inflate" || $0.primitive == "kdbx4-open" })
  }

  /// Fault injection: one bit of one primitive's output flipped fails exactly that primitive, for every primitive.
  @Test func aFlippedBitIsReportedAgainstExactlyThatPrimitive() {
    let names = KDBXSelfTest.run().results.map(\.primitive)
    #expect(names.count >= Self.required.count)
    for (index, name) in names.enumerated() {
      let report = KDBXSelfTest.run(fault: SelfTestFault(primitive: name, bit: index * 7))
      #expect(!report.passed, "\(name)")
      #expect(report.failedPrimitives == [name], "\(name): \(report.failedPrimitives)")
      guard let failure = report.failures.first else { continue }
      #expect(failure.expected.count == failure.actual.count)
      var differingBits = 0
      for (a, b) in zip(failure.expected, failure.actual) { differingBits += (a ^ b).nonzeroBitCount }
      #expect(differingBits == 1, "\(name)")
    }
  }

  @Test func aFaultNamingNoPrimitiveChangesNothing() {
    #expect(KDBXSelfTest.run(fault: SelfTestFault(primitive: "no-such-primitive")).passed)
  }
}

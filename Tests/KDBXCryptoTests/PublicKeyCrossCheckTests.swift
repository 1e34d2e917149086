import KDBXBase
import KDBXCrypto
import Testing
import VectorSupport

@Suite("Public-key cross-check with cryptography")
struct PublicKeyCrossCheckTests {
  /// The records of a cross-check file with the public key each one uses (a record without `pk` keeps the last).
  static func signed(_ file: String) -> [(pk: [UInt8], msg: [UInt8], sig: [UInt8], where: String)] {
    var key: [UInt8] = []
    return Vectors.records(file).map { record in
      if record.has("pk") { key = record.bytes("pk") }
      return (key, record.bytes("msg"), record.bytes("sig"), record.testDescription)
    }
  }

  /// 1,000 signatures of Python `cryptography` (a cross-check, run with the end-to-end suites).
  @Test(.enabled(if: EndToEnd.isEnabled, EndToEnd.skipReason)) func ecdsaSignaturesOfCryptographyVerify() throws {
    let records = Self.signed("crosscheck/cryptography-ecdsa-p256.vec")
    #expect(records.count == 1000)
    var accepted = 0
    for record in records {
      let key = try P256.Signing.PublicKey(sec1Representation: record.pk)
      let signature = try P256.Signing.ECDSASignature(derRepresentation: record.sig)
      #expect(signature.derRepresentation == record.sig, "\(record.where)")
      if key.isValidSignature(signature, for: record.msg) { accepted += 1 }
      #expect(!key.isValidSignature(signature, for: record.msg + [1]), "\(record.where)")
    }
    #expect(accepted == 1000)
  }

  @Test(.enabled(if: EndToEnd.isEnabled, EndToEnd.skipReason)) func ed25519SignaturesOfCryptographyVerifyAndMatch()
    throws
  {
    let records = Self.signed("crosscheck/cryptography-ed25519.vec")
    #expect(records.count == 1000)
    var accepted = 0
    for record in records {
      let key = try Ed25519.PublicKey(rawRepresentation: record.pk)
      if key.isValidSignature(record.sig, for: record.msg) { accepted += 1 }
    }
    #expect(accepted == 1000)
  }

  @Test func selfTestCoversSignatures() {
    let report = SelfTest.run()
    #expect(report.passed, "\(report.failures.map(\.primitive))")
    let names = report.results.map(\.primitive)
    for name in ["ecdsa-p256-sign", "ecdsa-p256-verify", "ed25519-sign", "ed25519-verify"] {
      #expect(names.contains(name))
      let faulty = SelfTest.run(fault: SelfTestFault(primitive: name))
      #expect(faulty.failedPrimitives == [name])
    }
  }
}

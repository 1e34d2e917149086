import KDBX
import Testing
import VectorSupport

@Suite("One-time passwords")
struct OneTimePasswordTests {
  static func algorithm(_ record: VectorRecord) -> OneTimePassword.Algorithm {
    switch record.string("algorithm") {
    case "sha256": return .sha256
    case "sha512": return .sha512
    default: return .sha1
    }
  }

  static func check(_ record: VectorRecord) throws {
    let digits = record.int("digits")
    if record.has("counter") {
      let counter = UInt64(record.string("counter")) ?? 0
      let otp = try OneTimePassword(
        secret: record.bytes("secret"), algorithm: algorithm(record), encoding: .decimal(digits: digits),
        kind: .hotp(counter: counter))
      #expect(otp.code(at: 0) == record.string("code"))
    } else {
      let otp = try OneTimePassword(
        secret: record.bytes("secret"), algorithm: algorithm(record), encoding: .decimal(digits: digits),
        kind: .totp(period: record.int("period")))
      #expect(otp.code(at: Int64(record.int("time"))) == record.string("code"))
    }
  }

  @Test("RFC 4226 Appendix D", arguments: Vectors.records("otp/rfc4226-hotp.vec"))
  func rfc4226(_ record: VectorRecord) throws { try Self.check(record) }

  @Test("RFC 6238 Appendix B", arguments: Vectors.records("otp/rfc6238-totp.vec"))
  func rfc6238(_ record: VectorRecord) throws { try Self.check(record) }

  @Test("pyotp cases", arguments: Vectors.records("otp/pyotp-cases.vec"))
  func pyotpCases(_ record: VectorRecord) throws { try Self.check(record) }

  @Test("Steam Guard", arguments: Vectors.records("otp/steam-guard.vec"))
  func steamGuard(_ record: VectorRecord) throws {
    let otp = try OneTimePassword(secret: record.bytes("secret"), encoding: .steam, kind: .totp(period: 30))
    #expect(otp.code(at: Int64(record.int("time"))) == record.string("code"))
  }

  @Test func secondsRemainingCountsDownToTheNextStep() throws {
    let otp = try OneTimePassword(secret: [1, 2, 3], kind: .totp(period: 30))
    #expect(otp.secondsRemaining(at: 0) == 30)
    #expect(otp.secondsRemaining(at: 1) == 29)
    #expect(otp.secondsRemaining(at: 29) == 1)
    #expect(otp.secondsRemaining(at: 30) == 30)
    #expect(otp.secondsRemaining(at: -1) == 1)
    #expect(otp.movingFactor(at: -1) == UInt64.max)
    let hotp = try OneTimePassword(secret: [1], kind: .hotp(counter: 5))
    #expect(hotp.secondsRemaining(at: 100) == nil)
  }

  @Test func badParametersAreRefused() {
    #expect(throws: OneTimePassword.ParameterError.emptySecret) { try OneTimePassword(secret: []) }
    #expect(throws: OneTimePassword.ParameterError.digitsOutOfRange(5)) {
      try OneTimePassword(secret: [1], encoding: .decimal(digits: 5))
    }
    #expect(throws: OneTimePassword.ParameterError.periodOutOfRange(0)) {
      try OneTimePassword(secret: [1], kind: .totp(period: 0))
    }
  }
}

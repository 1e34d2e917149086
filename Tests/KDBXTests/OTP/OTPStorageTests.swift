import Foundation
import KDBX
import KDBXBase
import Testing
import VectorSupport

/// Storage formats read from entry fields, checked against codes computed by pyotp
/// (`Vectors/tools/otp_storage_vectors.py`).
@Suite("OTP storage formats")
struct OTPStorageTests {
  static func format(_ name: String) -> OTPStorageFormat? {
    OTPStorageFormat.allCases.first { "\($0)" == name }
  }

  static func entry(fields: [(String, String)]) -> Entry {
    var entry = Entry(uuid: KDBXUUID.zero)
    for (key, value) in fields { entry[field: key] = .plain(value) }
    return entry
  }

  @Test("pyotp storage cases", arguments: Vectors.records("otp/pyotp-storage.vec"))
  func storageCase(_ record: VectorRecord) throws {
    var fields: [(String, String)] = []
    var index = 1
    while record.has("field\(index)") {
      fields.append((record.string("field\(index)"), record.string("value\(index)")))
      index += 1
    }
    let entry = Self.entry(fields: fields)
    let configuration = try #require(entry.oneTimePassword(), "\(record.string("name"))")
    #expect(configuration.generator.code(at: Int64(record.int("time"))) == record.string("code"))
    let winner = entry.oneTimePasswordReadings().first { if case .success = $0.result { true } else { false } }
    #expect(winner?.format == Self.format(record.string("format")))
    if record.has("issuer") { #expect(configuration.issuer == record.string("issuer")) }
    if record.has("account") { #expect(configuration.account == record.string("account")) }
    #expect(entry.oneTimePassword()?.generator == configuration.generator)
  }

  /// The fields of one entry of a corpus or demo oracle JSON (`custom_fields` in the corpus, `fields` in the demo).
  static func oracleFields(root: String, file: String, uuid: String) -> [String: String]? {
    let bytes: [UInt8]?
    if root == "corpus" {
      bytes = Corpus.file(file)
    } else {
      bytes = Vectors.readFile(atPath: Vectors.repositoryRoot + "/" + file)
    }
    guard let bytes, let json = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
      let entries = json["entries"] as? [[String: Any]],
      let entry = entries.first(where: { $0["uuid"] as? String == uuid })
    else { return nil }
    return (entry["custom_fields"] as? [String: String]) ?? (entry["fields"] as? [String: String])
  }

  @Test("corpus and demo vault OTP entries", arguments: Vectors.records("otp/corpus-otp-codes.vec"))
  func corpusEntry(_ record: VectorRecord) throws {
    let root = record.string("root")
    if root == "corpus" && !Corpus.isAvailable {
      print("note: ../shared/corpus is absent; skipped \(record.string("file"))")
      return
    }
    let fields = try #require(
      Self.oracleFields(root: root, file: record.string("file"), uuid: record.string("uuid")),
      "entry \(record.string("uuid")) not found in \(record.string("file"))")
    let entry = Self.entry(fields: fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    let generator = try #require(entry.oneTimePassword()?.generator)
    #expect(generator.code(at: Int64(record.int("time"))) == record.string("code"))
  }

  @Test func protectedFieldsAreRead() throws {
    var random = SplitMix64(seed: 1)
    var entry = Entry(uuid: .zero)
    entry[field: "otp"] = .protected(ProtectedValue("otpauth://totp/x?secret=JBSWY3DPEHPK3PXP", using: &random))
    #expect(entry.oneTimePassword()?.generator.secret == [0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x21, 0xDE, 0xAD, 0xBE, 0xEF])
  }

  @Test func entriesWithoutOTPHaveNone() {
    let entry = Self.entry(fields: [("Title", "t"), ("Password", "p")])
    #expect(entry.oneTimePasswordReadings().isEmpty)
    #expect(entry.oneTimePassword() == nil)
  }

  @Test func malformedFieldsReportTypedErrors() {
    let cases: [([(String, String)], OTPFormatError)] = [
      ([("TOTP Seed", "not base32!")], .invalidSecret(encoding: "base32")),
      ([("TOTP Seed", "JBSWY3DP"), ("TOTP Settings", "30")], .invalidParameter(name: "TOTP Settings", value: "30")),
      ([("TOTP Seed", "JBSWY3DP"), ("TOTP Settings", "abc;6")], .invalidParameter(name: "period", value: "abc")),
      ([("TOTP Seed", "JBSWY3DP"), ("TOTP Settings", "30;5")], .parameters(.digitsOutOfRange(5))),
      ([("TimeOtp-Secret-Hex", "abc")], .invalidSecret(encoding: "hex")),
      ([("TimeOtp-Secret-Base64", "!!!")], .invalidSecret(encoding: "base64")),
      ([("TimeOtp-Secret", "")], .missingSecret),
      (
        [("TimeOtp-Secret", "x"), ("TimeOtp-Algorithm", "HMAC-MD5")],
        .invalidParameter(name: "TimeOtp-Algorithm", value: "HMAC-MD5")
      ),
      ([("TimeOtp-Secret", "x"), ("TimeOtp-Period", "0")], .parameters(.periodOutOfRange(0))),
      ([("HmacOtp-Secret", "x"), ("HmacOtp-Counter", "-1")], .invalidParameter(name: "HmacOtp-Counter", value: "-1")),
      ([("otp", "key=JBSWY3DP&size=x")], .invalidParameter(name: "size", value: "x")),
    ]
    for (fields, error) in cases {
      let readings = Self.entry(fields: fields).oneTimePasswordReadings()
      #expect(readings.count == 1, "\(fields)")
      #expect(readings.first?.result == .failure(error), "\(fields)")
    }
  }

  @Test func writingInteroperableFieldsReadsBackFromEveryFormat() throws {
    var random = SplitMix64(seed: 7)
    var entry = Entry.new(clock: FixedClock(Timestamp(unixSeconds: 0)), random: &random)
    entry[field: "Title"] = .plain("Bank")
    entry[field: "UserName"] = .plain("alex")
    entry[field: "TOTP Seed"] = .protected(ProtectedValue("AAAAAAAA", using: &random))
    let generator = try OneTimePassword(
      secret: Array("12345678901234567890".utf8), algorithm: .sha256, encoding: .decimal(digits: 8),
      kind: .totp(period: 60))
    try entry.setOneTimePassword(OTPConfiguration(generator: generator), random: &random)
    #expect(entry[field: "TOTP Seed"] == nil)
    #expect(entry[field: "otp"]?.isProtected == true)
    #expect(entry[field: "TimeOtp-Secret-Base32"]?.isProtected == true)
    #expect(entry[field: "TimeOtp-Algorithm"] == .plain("HMAC-SHA-256"))
    let readings = entry.oneTimePasswordReadings()
    #expect(readings.map(\.format) == [.otpauthURI, .keePassTimeOTP])
    for reading in readings { #expect(try reading.result.get().generator == generator) }
    let configuration = try #require(entry.oneTimePassword())
    #expect(configuration.issuer == "Bank")
    #expect(configuration.account == "alex")
  }

  @Test func writingAllThreeFormatsForSteamRefusesKeePassFields() throws {
    var random = SplitMix64(seed: 8)
    var entry = Entry(uuid: .zero)
    entry[field: "otp"] = .plain("old")
    let steam = try OneTimePassword(secret: [1, 2, 3, 4, 5], encoding: .steam)
    #expect(throws: OTPFormatError.unrepresentable(.keePassTimeOTP)) {
      try entry.setOneTimePassword(OTPConfiguration(generator: steam), random: &random)
    }
    #expect(entry[field: "otp"] == .plain("old"), "a refused write changes nothing")
    try entry.setOneTimePassword(
      OTPConfiguration(generator: steam), formats: [.otpauthURI, .keePassXCLegacy], random: &random)
    #expect(entry[field: "TOTP Settings"] == .plain("30;S"))
    #expect(entry.oneTimePasswordReadings().allSatisfy { (try? $0.result.get().generator) == steam })
    entry.removeOneTimePassword()
    #expect(entry.oneTimePasswordReadings().isEmpty)
  }

  @Test func hotpIsWrittenToHmacOtpFields() throws {
    var random = SplitMix64(seed: 9)
    var entry = Entry(uuid: .zero)
    let hotp = try OneTimePassword(secret: Array("12345678901234567890".utf8), kind: .hotp(counter: 3))
    try entry.setOneTimePassword(OTPConfiguration(generator: hotp, issuer: "I", account: "A"), random: &random)
    #expect(entry[field: "HmacOtp-Counter"] == .plain("3"))
    #expect(entry.oneTimePasswordReadings().map(\.format) == [.otpauthURI, .keePassHmacOTP])
    // RFC 4226 Appendix D, count 3.
    #expect(entry.oneTimePassword()?.generator.code(at: 0) == "969429")
    #expect(throws: OTPFormatError.unrepresentable(.keePassXCLegacy)) {
      try entry.setOneTimePassword(OTPConfiguration(generator: hotp), formats: .keePassXCLegacy, random: &random)
    }
  }

  @Test func usingAnHOTPCodeAdvancesEveryStoredCounter() throws {
    var random = SplitMix64(seed: 10)
    var entry = Entry(uuid: .zero)
    let hotp = try OneTimePassword(secret: Array("12345678901234567890".utf8), kind: .hotp(counter: 3))
    try entry.setOneTimePassword(OTPConfiguration(generator: hotp, issuer: "I", account: "A"), random: &random)
    let advanced = entry.advanceHOTPCounter(random: &random)
    #expect(advanced)
    #expect(entry[field: "HmacOtp-Counter"] == .plain("4"))
    #expect(entry[field: "otp"]?.isProtected == true)
    for reading in entry.oneTimePasswordReadings() {
      // RFC 4226 Appendix D, count 4.
      #expect(try reading.result.get().generator.code(at: 0) == "338314")
      #expect(try reading.result.get().issuer == (reading.format == .otpauthURI ? "I" : nil))
    }
    var totp = Entry(uuid: .zero)
    totp[field: "otp"] = .plain("otpauth://totp/x?secret=JBSWY3DP")
    let totpAdvanced = totp.advanceHOTPCounter(random: &random)
    #expect(!totpAdvanced)
    #expect(totp[field: "otp"] == .plain("otpauth://totp/x?secret=JBSWY3DP"))
  }
}

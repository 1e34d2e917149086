import KDBX
import Testing
import VectorSupport

@Suite("otpauth URI")
struct OTPAuthURITests {
  @Test func parsesEveryParameter() throws {
    let configuration = try OTPAuthURI.parse(
      "otpauth://totp/ACME%20Co:%20alice@example.com?secret=jbsw%20y3dp%20ehpk%203pxp%3D%3D%3D&issuer=ACME%20Co"
        + "&algorithm=sha-512&digits=8&period=45&unknown=1#frag")
    #expect(configuration.issuer == "ACME Co")
    #expect(configuration.account == "alice@example.com")
    let generator = configuration.generator
    #expect(generator.secret == [0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x21, 0xDE, 0xAD, 0xBE, 0xEF])
    #expect(generator.algorithm == .sha512)
    #expect(generator.encoding == .decimal(digits: 8))
    #expect(generator.kind == .totp(period: 45))
  }

  @Test func defaultsFollowTheKeyURIFormat() throws {
    let totp = try OTPAuthURI.parse("otpauth://totp/label?secret=JBSWY3DPEHPK3PXP").generator
    #expect(totp.algorithm == .sha1 && totp.encoding == .decimal(digits: 6) && totp.kind == .totp(period: 30))
    let hotp = try OTPAuthURI.parse("otpauth://hotp/label?secret=JBSWY3DPEHPK3PXP").generator
    #expect(hotp.kind == .hotp(counter: 0))
    let noLabel = try OTPAuthURI.parse("otpauth://totp?secret=JBSWY3DPEHPK3PXP")
    #expect(noLabel.issuer == nil && noLabel.account == nil)
  }

  @Test func steamEncoderGivesSteamCodes() throws {
    let generator = try OTPAuthURI.parse("otpauth://totp/S:u?secret=JBSWY3DPEHPK3PXP&encoder=steam&digits=5")
      .generator
    #expect(generator.encoding == .steam)
  }

  @Test func refusesWhatItCannotRead() {
    let cases: [(String, OTPFormatError)] = [
      ("https://example.com", .notAnOTPAuthURI),
      ("otpauth:/totp/x?secret=A", .notAnOTPAuthURI),
      ("otpauth://motp/x?secret=JBSWY3DP", .unsupportedType("motp")),
      ("otpauth://totp/x?issuer=a", .missingSecret),
      ("otpauth://totp/x?secret=", .missingSecret),
      ("otpauth://totp/x?secret=JBSWY3D1", .invalidSecret(encoding: "base32")),
      ("otpauth://totp/x?secret=JBSWY3DP&digits=five", .invalidParameter(name: "digits", value: "five")),
      ("otpauth://totp/x?secret=JBSWY3DP&digits=4", .parameters(.digitsOutOfRange(4))),
      ("otpauth://totp/x?secret=JBSWY3DP&period=0", .parameters(.periodOutOfRange(0))),
      (
        "otpauth://totp/x?secret=JBSWY3DP&period=99999999999999999999",
        .invalidParameter(
          name: "period", value: "99999999999999999999")
      ),
      ("otpauth://totp/x?secret=JBSWY3DP&algorithm=MD5", .invalidParameter(name: "algorithm", value: "MD5")),
      ("otpauth://totp/x?secret=JBSWY3DP&encoder=yandex", .invalidParameter(name: "encoder", value: "yandex")),
      ("otpauth://hotp/x?secret=JBSWY3DP&counter=-1", .invalidParameter(name: "counter", value: "-1")),
      ("otpauth://totp/x%2?secret=JBSWY3DP", .invalidPercentEncoding),
      ("otpauth://totp/x%FF?secret=JBSWY3DP", .invalidPercentEncoding),
    ]
    for (text, error) in cases {
      #expect(throws: error, "\(text)") { try OTPAuthURI.parse(text) }
    }
  }

  @Test func formatRoundTrips() throws {
    var random = SplitMix64(seed: 42)
    let encodings: [OneTimePassword.Encoding] = [
      .decimal(digits: 6), .decimal(digits: 8), .decimal(digits: 10), .steam,
    ]
    let kinds: [OneTimePassword.Kind] = [.totp(period: 30), .totp(period: 60), .hotp(counter: 0), .hotp(counter: 99)]
    let algorithms: [OneTimePassword.Algorithm] = [.sha1, .sha256, .sha512]
    let labels: [(String?, String?)] = [(nil, nil), ("ACME Co", nil), (nil, "bob@x"), ("A:B & C/?", "ü ser%")]
    for encoding in encodings {
      for kind in kinds {
        for algorithm in algorithms {
          for (issuer, account) in labels {
            let secret = random.bytes(Int(random.next() % 40) + 1)
            let generator = try OneTimePassword(secret: secret, algorithm: algorithm, encoding: encoding, kind: kind)
            let configuration = OTPConfiguration(generator: generator, issuer: issuer, account: account)
            let text = OTPAuthURI.format(configuration)
            let back = try OTPAuthURI.parse(text)
            #expect(back.generator == generator, "\(text)")
            #expect(back.issuer == issuer, "\(text)")
            #expect(back.account == account, "\(text)")
          }
        }
      }
    }
  }

  @Test func formatMatchesTheKeyURIFormatLayout() throws {
    let generator = try OneTimePassword(
      secret: [0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x21, 0xDE, 0xAD, 0xBE, 0xEF], algorithm: .sha256)
    #expect(
      OTPAuthURI.format(OTPConfiguration(generator: generator, issuer: "ACME Co", account: "a@b"))
        == "otpauth://totp/ACME%20Co:a%40b?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&issuer=ACME%20Co"
        + "&algorithm=SHA256")
  }
}

import KDBX
import Testing

@Suite struct PlaceholderTests {
  static let database = ReferenceFixture.make()
  static let shared = database.entry(withUUID: ReferenceFixture.shared) ?? Entry(uuid: .zero)

  static func resolve(_ text: String, _ entry: Entry = shared, otp: (@Sendable (Entry) -> String?)? = nil) -> String {
    PlaceholderResolver(database: database, oneTimePassword: otp).resolve(text, for: entry)
  }

  @Test(arguments: [
    ("{TITLE}", "Shared login"), ("{title}", "Shared login"), ("{UserName}", "alice"), ("{PASSWORD}", "pa55"),
    ("{NOTES}", "see alice"), ("{URL}", "https://bob:pw@Example.COM:8443/path/x?q=1#frag"),
    ("{S:Title}", "Shared login"), ("{s:password}", "pa55"), ("{UUID}", ReferenceFixture.hexOfShared),
    ("{GROUP}", "Root"), ("{URL:HOST}", "example.com"), ("{URL:SCM}", "https"), ("{URL:SCHEME}", "https"),
    ("{URL:PORT}", "8443"), ("{URL:PATH}", "/path/x"), ("{URL:QUERY}", "?q=1"), ("{URL:FRAGMENT}", "frag"),
    ("{URL:USERINFO}", "bob:pw"), ("{URL:USERNAME}", "bob"), ("{URL:PASSWORD}", "pw"),
    ("{URL:RMVSCM}", "bob:pw@Example.COM:8443/path/x?q=1#frag"),
    ("{USERNAME}:{PASSWORD}@{URL:HOST}", "alice:pa55@example.com"),
  ])
  func resolvesPlaceholders(_ text: String, _ expected: String) {
    #expect(Self.resolve(text) == expected)
  }

  @Test func unknownAndUnavailablePlaceholdersStay() {
    #expect(Self.resolve("{NOPE} {S:Missing} {URL:WHAT} {TOTP} {") == "{NOPE} {S:Missing} {URL:WHAT} {TOTP} {")
    #expect(Self.resolve("no placeholders") == "no placeholders")
    #expect(Self.resolve("{{TITLE}}") == "{Shared login}")
  }

  @Test func customFieldsAndReferencesInsideThem() {
    let custom = Self.database.entry(withUUID: ReferenceFixture.custom) ?? Entry(uuid: .zero)
    #expect(Self.resolve("{S:Account}/{S:account}", custom) == "acct-77/acct-77")
    let alias = Self.database.entry(withUUID: ReferenceFixture.alias) ?? Entry(uuid: .zero)
    #expect(Self.resolve("{USERNAME} {URL:HOST} {URL:PORT}", alias) == "alice example.com 8443")
  }

  @Test func urlPartsWithDefaultsAndWithoutScheme() {
    #expect(URLParts("https://example.com").path == "/")
    #expect(URLParts("https://example.com").port == 443)
    #expect(URLParts("http://example.com/a").port == 80)
    #expect(URLParts("example.com:8080/x").scheme == "")
    #expect(URLParts("example.com:8080/x").port == 8080)
    #expect(URLParts("example.com:8080/x").withoutScheme == "example.com:8080/x")
    #expect(URLParts("mailto:someone@example.com").scheme == "mailto")
    #expect(URLParts("mailto:someone@example.com").withoutScheme == "someone@example.com")
    #expect(URLParts("").host == "")
    #expect(URLParts("https://[::1]:9/").host == "::1")
  }

  @Test func totpComesFromTheProvider() throws {
    // RFC 6238 appendix B: SHA-1 secret "12345678901234567890", T = 59 s, 8 digits -> 94287082.
    let generator = try OneTimePassword(
      secret: Array("12345678901234567890".utf8), algorithm: .sha1, encoding: .decimal(digits: 8))
    let provider: @Sendable (Entry) -> String? = { entry in
      entry.uuid == ReferenceFixture.shared ? generator.code(at: 59) : nil
    }
    #expect(Self.resolve("code {TOTP}", otp: provider) == "code 94287082")
    let custom = Self.database.entry(withUUID: ReferenceFixture.custom) ?? Entry(uuid: .zero)
    #expect(Self.resolve("{totp}", custom, otp: provider) == "{totp}")
  }
}

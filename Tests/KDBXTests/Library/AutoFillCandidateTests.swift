import KDBX
import KDBXAutoFill
import Testing
import VectorSupport

@Suite struct AutoFillCandidateTests {
  static func ids(_ matches: CredentialMatches<KDBXUUID>) -> [KDBXUUID] { matches.matches.map { $0.id } }

  static func service(_ text: String) throws -> ServiceIdentifier { try #require(ServiceIdentifier(text)) }

  @Test func siblingHostsDoNotMatchByDefault() throws {
    let candidates = [MatchCandidate(id: 1, url: "https://alice.example.com/login")]
    let request = try Self.service("https://bob.example.com/")
    #expect(CredentialMatcher().match(request, in: candidates).matches.isEmpty, "the exact-host default")
    #expect(
      CredentialMatcher().match(try Self.service("https://alice.example.com/x"), in: candidates).matches.count == 1)
    var options = CredentialMatcher.Options()
    options.allowsSameRegistrableDomain = true
    let loose = CredentialMatcher(options: options).match(request, in: candidates)
    #expect(loose.matches.first?.reason == .sameRegistrableDomain)
  }

  @Test(arguments: [
    ("https://alice.github.io", "https://bob.github.io"),
    ("https://one.blogspot.com", "https://two.blogspot.com"),
    ("https://app-a.herokuapp.com", "https://app-b.herokuapp.com"),
    ("https://shop-a.myshopify.com", "https://shop-b.myshopify.com"),
    ("https://a.s3.amazonaws.com", "https://b.s3.amazonaws.com"),
    ("https://x.pages.dev", "https://y.pages.dev"),
    // Not in the 229-rule table the library had before the full list.
    ("https://docs-a.readthedocs.io", "https://docs-b.readthedocs.io"),
    ("https://tunnel-a.ngrok.io", "https://tunnel-b.ngrok.io"),
    ("https://site-a.azurestaticapps.net", "https://site-b.azurestaticapps.net"),
  ])
  func sharedHostingSitesNeverMatchEachOther(_ pair: (String, String)) throws {
    var options = CredentialMatcher.Options()
    options.allowsSameRegistrableDomain = true
    let matcher = CredentialMatcher(options: options)
    let found = matcher.match(try Self.service(pair.1), in: [MatchCandidate(id: 1, url: pair.0)])
    #expect(found.matches.isEmpty, "\(pair.0) must not be offered to \(pair.1)")
  }

  @Test func theBuiltInListIsTheFullPublicSuffixList() {
    let list = PublicSuffixList.builtIn
    #expect(list.registrableDomain(of: "www.example.co.uk") == "example.co.uk")
    #expect(list.registrableDomain(of: "alice.github.io") == "alice.github.io")
    #expect(list.registrableDomain(of: "github.io") == nil)
    #expect(list.registrableDomain(of: "a.b.foo.kawasaki.jp") == "b.foo.kawasaki.jp", "wildcard *.kawasaki.jp")
    #expect(list.registrableDomain(of: "www.city.kawasaki.jp") == "city.kawasaki.jp", "exception !city.kawasaki.jp")
    #expect(list.registrableDomain(of: "shop.xn--55qx5d.cn") == "shop.xn--55qx5d.cn", "punycode of 公司.cn")
    #expect(list.registrableDomain(of: "shop.公司.cn") == "shop.公司.cn")
    #expect(PublicSuffixList.builtInVersion.contains("publicsuffix"))
  }

  @Test func candidatesGatherEveryURLAndSkipTheBinAndExpiredEntries() throws {
    var database = LibraryFixture.make()
    let clock = LibraryFixture.later
    var random = SplitMix64(seed: 4)
    // GitHub: an additional URL and KeePassXC browser settings that allow one host and deny another.
    database.editEntry(LibraryFixture.github, clock: clock) { entry in
      entry.setCustomField("KP2A_URL_1", to: "https://gist.github.com", protected: false)
      entry.setCustomField("KP2A_URL_X", to: "https://not-a-url-field.example", protected: false)
      entry.customData = CustomData(items: [
        .init(
          key: "KeePassXC-Browser Settings", value: #"{"Allow":["github.dev"],"Deny":["evil.github.com"],"Realm":""}"#)
      ])
    }
    // An alias whose URL is a reference to GitHub's.
    var alias = Entry.new(clock: clock, random: &random)
    alias.title = "Alias"
    alias.url = "{REF:A@I:\(String(LibraryFixture.github.description.filter { $0 != "-" }))}"
    database.root?.entries.append(alias)
    // An expired entry, and the café entry deleted to the bin.
    var expired = Entry.new(clock: clock, random: &random)
    expired.url = "https://github.com"
    expired.expiry = Timestamp(unixSeconds: 1_650_000_000)
    database.root?.entries.append(expired)
    database.deleteEntry(LibraryFixture.cafe, clock: clock, random: &random)

    let candidates = database.matchCandidates(now: clock.time)
    #expect(!candidates.contains { $0.id == expired.uuid || $0.id == LibraryFixture.cafe })
    let github = try #require(candidates.first { $0.id == LibraryFixture.github })
    #expect(github.url == "https://github.com/login")
    #expect(github.additionalURLs == ["https://gist.github.com", "github.dev"])
    #expect(github.deniedHosts == ["evil.github.com"])
    let aliasCandidate = try #require(candidates.first { $0.id == alias.uuid })
    #expect(aliasCandidate.url == "https://github.com/login", "the reference is resolved")

    let matcher = CredentialMatcher()
    let gist = matcher.match(try Self.service("https://gist.github.com/x"), in: candidates).matches.first
    #expect(gist?.id == github.id && gist?.reason == .exactHost && gist?.viaAdditionalURL == true)
    #expect(Self.ids(matcher.match(try Self.service("https://github.dev"), in: candidates)) == [github.id])
    let denied = matcher.match(try Self.service("https://evil.github.com/login"), in: candidates)
    #expect(!Self.ids(denied).contains(github.id), "a denied host is never offered the entry")
    let login = Self.ids(matcher.match(try Self.service("https://github.com/login"), in: candidates))
    #expect(Set(login) == [github.id, alias.uuid])
  }

  @Test func secretsAreRedactedInDescriptions() throws {
    let secret = Array("12345678901234567890".utf8)
    let otp = try OneTimePassword(secret: secret)
    for text in [String(describing: otp), String(reflecting: otp)] {
      #expect(text.contains("<redacted>") && !text.contains("49, 50"), "\(text)")
    }
    var dumped = ""
    dump(otp, to: &dumped)
    #expect(!dumped.contains("49"), "\(dumped)")
    let key = CompositeKey(password: "pw")
    #expect(!String(describing: key).contains("pw") || String(describing: key).contains("redacted"))
    var random = SplitMix64(seed: 1)
    let database = Database.new(name: "V", clock: LibraryFixture.clock, random: &random)
    let saved = try KDBXFile.write(
      database, key: key,
      settings: SaveSettings(
        version: .v4_0,
        kdf: .aesKDF(AESKDFParameters(rounds: 10, seed: [UInt8](repeating: 0, count: 32)))),
      primitives: StandardPrimitives(), random: &random)
    let opened = try KDBXFile.openBlocking(bytes: saved.bytes, key: key)
    let keyText = saved.transformedKey.bytes.map { String($0) }.joined(separator: ", ")
    for text in [
      String(describing: saved), String(reflecting: saved), String(describing: opened), String(reflecting: opened),
    ] {
      #expect(text.contains("<redacted>") && !text.contains(keyText), "\(text)")
    }
    var dumpedOpened = ""
    dump(opened, to: &dumpedOpened)
    #expect(!dumpedOpened.contains(keyText))
  }
}

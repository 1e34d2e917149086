import Foundation
import KDBX
import Testing
import VectorSupport

/// One of our own fixtures in Vectors/kdbx/fixtures (made by make_fixtures.py with keepassxc-cli and pykeepass).
struct Fixture: Sendable, CustomTestStringConvertible {
  var name: String
  var testDescription: String { name }

  var bytes: [UInt8]? { Vectors.data("kdbx/fixtures/\(name).kdbx") }
  var expected: [String: Any]? { Vectors.data("kdbx/fixtures/\(name).kdbx.expected.json").flatMap(ExpectedJSON.parse) }

  /// The credentials recorded in the expected JSON.
  func key() throws -> CompositeKey {
    let credentials = expected?["credentials"] as? [String: Any]
    let password = credentials?["password"] as? String
    var keyFile: KeyFile? = nil
    if let name = credentials?["keyfile"] as? String, let contents = Vectors.data("kdbx/fixtures/keys/\(name)") {
      keyFile = try KeyFile(contents: contents)
    }
    return CompositeKey(password: password, keyFile: keyFile)
  }

  /// Every fixture with an expected JSON file, found through the generator's naming.
  static let all: [Fixture] = {
    var names: [String] = []
    for cipher in ["aes256", "chacha20", "twofish"] { names.append("kdbx31-\(cipher)-aeskdf") }
    for version in ["40", "41"] {
      for cipher in ["aes256", "chacha20", "twofish"] {
        for kdf in ["aeskdf", "argon2d", "argon2id"] { names.append("kdbx\(version)-\(cipher)-\(kdf)") }
      }
    }
    for form in ["xml-v1", "xml-v2", "binary32", "hex64", "hashed", "bom-xml-v2"] { names.append("keyfile-\(form)") }
    names += [
      "keyfile-only", "kdbx31-keyfile-password", "non-ascii-password", "empty-password", "uncompressed",
      "kdbx31-uncompressed", "keepassxc-resaved-kdbx31", "keepassxc-resaved-kdbx40", "keepassxc-resaved-kdbx41",
      "unknown-elements", "kdbx2-inline-binaries", "kdbx2-binary-pool",
    ]
    return names.map { Fixture(name: $0) }
  }()
}

@Suite("Fixtures: our KDBX files made by keepassxc-cli and pykeepass")
struct FixtureTests {
  @Test(arguments: Fixture.all)
  func opensAndMatchesExpectedJSON(_ fixture: Fixture) throws {
    let bytes = try #require(fixture.bytes, "missing fixture \(fixture.name)")
    let expected = try #require(fixture.expected, "missing expected JSON for \(fixture.name)")
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: try fixture.key())
    let problems = ExpectedJSON.compare(opened.database, with: expected)
    #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "; "))")
    let header = expected["header"] as? [String: Any]
    #expect(opened.header.version.name == (header?["format"] as? String)?.dropFirst(4).description)
  }

  @Test(arguments: Fixture.all)
  func savesAndReopensWithTheSameContent(_ fixture: Fixture) throws {
    let bytes = try #require(fixture.bytes)
    let expected = try #require(fixture.expected)
    let key = try fixture.key()
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: key)
    let saved = try KDBXFile.saveBlocking(opened.database, key: key, settings: SaveSettings(keeping: opened))
    let reopened = try KDBXFile.openBlocking(bytes: saved, key: key)
    // KDBX 2.x and 3.0 are written as 3.1.
    #expect(reopened.header.version == max(opened.header.version, .v3_1))
    #expect(reopened.header.cipher == opened.header.cipher)
    let problems = ExpectedJSON.compare(reopened.database, with: expected)
    #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "; "))")
  }

  @Test func wrongPasswordIsInvalidCredentials() throws {
    for name in ["kdbx31-aes256-aeskdf", "kdbx40-chacha20-argon2id", "kdbx41-twofish-aeskdf"] {
      let bytes = try #require(Fixture(name: name).bytes)
      #expect(throws: KDBXError.invalidCredentials) {
        try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "not the password"))
      }
    }
  }

  @Test func wrongKeyFileIsInvalidCredentials() throws {
    let bytes = try #require(Fixture(name: "keyfile-xml-v2").bytes)
    let other = try KeyFile(contents: try #require(Vectors.data("kdbx/fixtures/keys/hex64.key")))
    #expect(throws: KDBXError.invalidCredentials) {
      try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "fixture", keyFile: other))
    }
  }
}

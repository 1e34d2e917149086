import KDBX
import Testing
import VectorSupport

/// The mutation suite's hostile-size and wrong-key cases (issues #7 "Negative" and #10 item 2): absurd declared
/// sizes and costs are refused with ``KDBXError/limitExceeded(what:value:limit:)`` before anything is allocated or
/// run, and a wrong key file is ``KDBXError/invalidCredentials``, never "damaged".
@Suite("Mutation suite: absurd sizes and wrong key files", .timeLimit(.minutes(1)))
struct MutationSuiteLimitsTests {
  static func uint32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }

  static func expectLimit(_ what: String, value: UInt64, _ body: () throws(KDBXError) -> Void) {
    do throws(KDBXError) {
      try body()
      Issue.record("\(what) \(value) was accepted")
    } catch {
      guard case .limitExceeded(let name, let got, let limit) = error else {
        Issue.record("\(what) \(value): expected limitExceeded, got \(error)")
        return
      }
      #expect(name.contains(what), "\(name)")
      #expect(got == value)
      #expect(limit < value)
    }
  }

  /// A KDBX 4 file whose header is changed by `edit`, with a recomputed header SHA-256 (the HMAC is left stale:
  /// the limits must be checked before the key is).
  static func kdbx4(_ name: String, edit: (inout OuterHeader) -> Void) throws -> [UInt8] {
    let bytes = try #require(Fixture(name: name).bytes)
    let block = try KDBXFile.readHeader(bytes: bytes)
    var header = block.header
    edit(&header)
    let serialized = try header.serialized()
    let rest = Array(bytes[(block.header.rawBytes.count + 32)...])
    return serialized + SHA256Helper.hash(serialized) + rest
  }

  @Test func fourGiBHeaderFieldLengthIsRefused() throws {
    let bytes = try #require(Fixture(name: "kdbx41-aes256-aeskdf").bytes)
    let file = Array(bytes[0..<12]) + [2] + Self.uint32(.max) + [UInt8](repeating: 0, count: 16)
    Self.expectLimit("header field", value: UInt64(UInt32.max)) { () throws(KDBXError) in
      _ = try KDBXFile.openBlocking(bytes: file, key: CompositeKey(password: "fixture"))
    }
    // The inner header (KDBX 4) and a VariantDictionary item declare 4 GiB too.
    // Inner-header lengths are signed 32-bit (KeePass writes an Int32): 0xFFFFFFFF is a negative length, 2 GiB - 1
    // is over the binary limit.
    #expect(throws: KDBXError.malformedInnerHeader(field: "Binary", reason: "negative length -1")) {
      try InnerHeader(parsing: [3] + Self.uint32(.max) + [1, 2, 3])
    }
    Self.expectLimit("binary bytes", value: 0x7FFF_FFFF) { () throws(KDBXError) in
      _ = try InnerHeader(parsing: [3] + Self.uint32(0x7FFF_FFFF) + [1, 2, 3])
    }
    let dictionary: [UInt8] = [0x00, 0x01, 0x42] + Self.uint32(.max) + Array("key".utf8)
    #expect(throws: KDBXError.self) { try VariantDictionary(parsing: dictionary) }
  }

  @Test func hugeBlockSizesAreRefused() throws {
    // A KDBX 4 HMAC block declaring 2 GiB - 1 bytes.
    let bytes = try #require(Fixture(name: "kdbx41-chacha20-aeskdf").bytes)
    let block = try KDBXFile.readHeader(bytes: bytes)
    var file = bytes
    file.replaceSubrange((block.payloadOffset + 32)..<(block.payloadOffset + 36), with: Self.uint32(0x7FFF_FFFF))
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "fixture"))
    let cached = CompositeKey(transformedSecret: opened.transformedKey)
    Self.expectLimit("payload", value: 0x7FFF_FFFF) { () throws(KDBXError) in
      _ = try KDBXFile.openBlocking(bytes: file, key: cached)
    }
    // A KDBX 3 hashed block declaring 2 GiB - 1 bytes.
    let hashed = Self.uint32(0) + [UInt8](repeating: 0, count: 32) + Self.uint32(0x7FFF_FFFF) + [1, 2, 3]
    Self.expectLimit("payload", value: 0x7FFF_FFFF) { () throws(KDBXError) in
      _ = try HashedBlockStream.read(hashed)
    }
  }

  @Test func fourTiBArgon2MemoryIsRefused() throws {
    let file = try Self.kdbx4("kdbx41-aes256-argon2id") { header in
      guard case .argon2(var argon) = header.kdf else { return }
      argon.memoryBytes = 4 << 40
      header.kdf = .argon2(argon)
    }
    Self.expectLimit("Argon2 memory", value: 4 << 40) { () throws(KDBXError) in
      _ = try KDBXFile.openBlocking(bytes: file, key: CompositeKey(password: "fixture"))
    }
  }

  @Test func aBillionRoundsAreRefused() throws {
    // KDBX 3.1 transform rounds (header field 6).
    let bytes = try #require(Fixture(name: "kdbx31-aes256-aeskdf").bytes)
    let block = try KDBXFile.readHeader(bytes: bytes)
    var header = block.header
    header.kdf = .aesKDF(AESKDFParameters(rounds: 1_000_000_000, seed: header.kdf.seed))
    let file3 = try header.serialized() + Array(bytes[block.payloadOffset...])
    Self.expectLimit("AES-KDF rounds", value: 1_000_000_000) { () throws(KDBXError) in
      _ = try KDBXFile.openBlocking(bytes: file3, key: CompositeKey(password: "fixture"))
    }
    // KDBX 4 AES-KDF rounds and Argon2 iterations.
    let file4 = try Self.kdbx4("kdbx40-aes256-aeskdf") { header in
      guard case .aesKDF(var aes) = header.kdf else { return }
      aes.rounds = 1_000_000_000
      header.kdf = .aesKDF(aes)
    }
    Self.expectLimit("AES-KDF rounds", value: 1_000_000_000) { () throws(KDBXError) in
      _ = try KDBXFile.openBlocking(bytes: file4, key: CompositeKey(password: "fixture"))
    }
    let argon = try Self.kdbx4("kdbx40-aes256-argon2d") { header in
      guard case .argon2(var parameters) = header.kdf else { return }
      parameters.iterations = 1_000_000_000
      header.kdf = .argon2(parameters)
    }
    Self.expectLimit("Argon2 iterations", value: 1_000_000_000) { () throws(KDBXError) in
      _ = try KDBXFile.openBlocking(bytes: argon, key: CompositeKey(password: "fixture"))
    }
  }

  static let keyFileFixtures = [
    "keyfile-xml-v1", "keyfile-xml-v2", "keyfile-binary32", "keyfile-hex64", "keyfile-hashed", "keyfile-bom-xml-v2",
    "keyfile-only", "kdbx31-keyfile-password",
  ]

  /// Every other key file form, and no key file at all, gives invalidCredentials.
  @Test(arguments: keyFileFixtures)
  func wrongKeyFileIsInvalidCredentials(_ name: String) throws {
    let fixture = Fixture(name: name)
    let bytes = try #require(fixture.bytes)
    let credentials = try #require(fixture.expected?["credentials"] as? [String: Any])
    let own = try #require(credentials["keyfile"] as? String)
    let password = credentials["password"] as? String
    var keys: [CompositeKey] = [CompositeKey(password: password ?? "fixture")]
    for other in ["xml-v1.key", "xml-v2.keyx", "binary32.key", "hex64.key", "hashed.key"] where other != own {
      let contents = try #require(Vectors.data("kdbx/fixtures/keys/\(other)"))
      let file = try KeyFile(contents: contents)
      // bom-xml-v2 and xml-v2 may hold the same key; compare keys, not names.
      let ownFile = try KeyFile(contents: try #require(Vectors.data("kdbx/fixtures/keys/\(own)")))
      guard file != ownFile else { continue }
      keys.append(CompositeKey(password: password, keyFile: file))
    }
    for key in keys {
      #expect(throws: KDBXError.invalidCredentials, "\(name)") { try KDBXFile.openBlocking(bytes: bytes, key: key) }
    }
  }
}

import Foundation
import KDBXCrypto
import Testing
import VectorSupport

@testable import KDBX

/// Irregularities of other writers that are accepted once the file's integrity is proven (issue #18): bytes after
/// the gzip member, and a final CBC block whose padding is malformed or absent. Each opens with its
/// ``KDBXWarning``; the same file with a wrong key or any damaged byte is still refused.
@Suite("Quirks: integrity-proven irregularities open with a warning")
struct QuirkFixtureTests {
  typealias Recipe = QuirkFixtures.Recipe

  /// The committed fixtures, and the same quirks with the other ciphers and versions.
  static let recipes: [Recipe] =
    QuirkFixtures.committed + [
      Recipe(name: "kdbx41-chacha20-bytes-after-gzip", version: .v4_1, cipher: .chaCha20, afterGzip: .pkcs7Style),
      Recipe(name: "kdbx40-twofish-bytes-after-gzip", version: .v4_0, cipher: .twofish, afterGzip: .bytes([0, 0, 0])),
      Recipe(name: "kdbx31-chacha20-bytes-after-gzip", version: .v3_1, cipher: .chaCha20, afterGzip: .pkcs7Style),
      Recipe(name: "kdbx31-twofish-zero-padding", version: .v3_1, cipher: .twofish, padding: .zeros),
      Recipe(name: "kdbx31-aes256-no-padding", version: .v3_1, cipher: .aes256, padding: .absent),
      Recipe(name: "kdbx31-aes256-pattern-padding", version: .v3_1, cipher: .aes256, padding: .pattern(0xAA)),
      Recipe(name: "kdbx41-twofish-no-padding", version: .v4_1, cipher: .twofish, padding: .absent),
      Recipe(
        name: "kdbx31-aes256-bytes-after-gzip-zero-padding", version: .v3_1, cipher: .aes256,
        afterGzip: .pkcs7Style, padding: .zeros),
    ]

  /// Whether `warnings` are the ones `recipe` must open with.
  static func expected(_ recipe: Recipe, _ warnings: [KDBXWarning]) -> Bool {
    var rest = warnings[...]
    if recipe.cipher != .chaCha20 && recipe.padding != .pkcs7 {
      guard case .malformedFinalPadding(let count) = rest.first, recipe.padding != .absent || count == 0, count <= 16
      else { return false }
      rest.removeFirst()
    }
    if recipe.afterGzip != .nothing {
      guard case .bytesAfterCompressedData(let count) = rest.first, (1...16).contains(count) else { return false }
      rest.removeFirst()
    }
    return rest.isEmpty
  }

  /// The entry the fixtures hold, as a comparable summary.
  static func summary(_ database: Database) -> [String] {
    guard let entry = database.root?.groups.first?.entries.first else { return ["no entry"] }
    var lines = entry.fields.map { "\($0.key)=\($0.value.reveal()) \($0.value.isProtected)" }.sorted()
    lines.append("tags=\(entry.tagsText ?? "")")
    lines += entry.attachments.map { "\($0.name)=\(database.contents(of: $0).map { Array($0) } ?? [])" }
    lines += (entry.history ?? []).map { "history \($0[field: Entry.passwordField]?.reveal() ?? "")" }
    lines.append("name=\(database.meta.databaseName ?? "")")
    return lines
  }

  @Test(arguments: recipes)
  func opensWithItsWarning(_ recipe: Recipe) throws {
    let (bytes, database) = try QuirkFixtures.build(recipe)
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: QuirkFixtures.key)
    #expect(Self.expected(recipe, opened.warnings), "\(recipe.name): \(opened.warnings)")
    #expect(!opened.warnings.isEmpty)
    #expect(Self.summary(opened.database) == Self.summary(database))
    #expect(Self.summary(opened.database).contains("Password=correct <horse> & battery true"))
    // The read-back check of saves agrees.
    let report = try KDBXFile.verifyIntegrity(bytes: bytes, key: QuirkFixtures.key, primitives: StandardPrimitives())
    #expect(report.warnings == opened.warnings)
    // A save writes a regular file: no warning when it is read again.
    let saved = try KDBXFile.saveBlocking(
      opened.database, key: QuirkFixtures.key, settings: SaveSettings(keeping: opened))
    let reopened = try KDBXFile.openBlocking(bytes: saved, key: QuirkFixtures.key)
    #expect(reopened.warnings.isEmpty)
    #expect(Self.summary(reopened.database) == Self.summary(database))
  }

  @Test(arguments: recipes)
  func wrongKeyIsInvalidCredentials(_ recipe: Recipe) throws {
    let (bytes, _) = try QuirkFixtures.build(recipe)
    let wrong = CompositeKey(password: "quirk <&> passwörd")
    #expect(throws: KDBXError.invalidCredentials) { try KDBXFile.openBlocking(bytes: bytes, key: wrong) }
    #expect(throws: KDBXError.invalidCredentials) {
      try KDBXFile.verifyIntegrity(bytes: bytes, key: wrong, primitives: StandardPrimitives())
    }
  }

  /// Every bit flip in the payload is refused, in KDBX 4 always (the block HMACs). In KDBX 3.x a flip in a last
  /// CBC block that holds nothing but padding cannot be noticed (no hash covers the padding) and may open, with the
  /// content unchanged; every other flip is refused.
  @Test(arguments: recipes)
  func damagedPayloadIsRefused(_ recipe: Recipe) throws {
    let (bytes, database) = try QuirkFixtures.build(recipe)
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: QuirkFixtures.key)
    let cached = CompositeKey(transformedSecret: opened.transformedKey)
    let payloadOffset = try KDBXFile.readHeader(bytes: bytes).payloadOffset
    let expected = Self.summary(database)
    var refused = 0
    for offset in payloadOffset..<bytes.count {
      var mutated = bytes
      mutated[offset] ^= 1 << UInt8(offset % 8)
      var random = SplitMix64(seed: 1)
      do {
        let result = try KDBXFile.open(bytes: mutated, key: cached, primitives: StandardPrimitives(), random: &random)
        let harmless =
          !recipe.version.isKDBX4 && recipe.cipher != .chaCha20 && offset >= bytes.count - 16
          && Self.summary(result.database) == expected
        #expect(harmless, "\(recipe.name): flip at \(offset) of \(bytes.count) opened")
      } catch {
        refused += 1
        #expect(error != .invalidCredentials || offset < payloadOffset + 48, "\(recipe.name): \(offset): \(error)")
      }
    }
    #expect(refused >= bytes.count - payloadOffset - 16)
  }

  /// What is not a quirk stays an error: more than a block after the hashed block stream, a KDBX 4 CBC payload
  /// without gzip to delimit it, and bytes after the gzip member that start like another member.
  @Test func irregularitiesBeyondTheQuirksAreRefused() throws {
    let junk = Recipe(name: "kdbx31-aes256-overlong", version: .v3_1, cipher: .aes256, padding: .overlong(17))
    #expect(throws: KDBXError.crypto(.invalidPadding)) {
      try KDBXFile.openBlocking(bytes: try QuirkFixtures.build(junk).bytes, key: QuirkFixtures.key)
    }
    let uncompressed = Recipe(
      name: "kdbx40-aes256-zero-padding-uncompressed", version: .v4_0, cipher: .aes256, compression: .none,
      padding: .zeros)
    #expect(throws: KDBXError.crypto(.invalidPadding)) {
      try KDBXFile.openBlocking(bytes: try QuirkFixtures.build(uncompressed).bytes, key: QuirkFixtures.key)
    }
    for version in [KDBXVersion.v3_1, .v4_0] {
      let member = Recipe(
        name: "member-like-\(version)", version: version, cipher: .chaCha20, afterGzip: .bytes([0x1F, 0x8B, 0x07]))
      #expect(throws: KDBXError.self) {
        try KDBXFile.openBlocking(bytes: try QuirkFixtures.build(member).bytes, key: QuirkFixtures.key)
      }
    }
  }

  /// The regular files of the same recipes open without a warning (the builder itself adds nothing).
  @Test(arguments: [KDBXVersion.v3_1, .v4_0], [CipherAlgorithm.aes256, .twofish, .chaCha20])
  func regularFilesHaveNoWarning(_ version: KDBXVersion, _ cipher: CipherAlgorithm) throws {
    let recipe = Recipe(name: "regular-\(version)-\(cipher)", version: version, cipher: cipher)
    let (bytes, database) = try QuirkFixtures.build(recipe)
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: QuirkFixtures.key)
    #expect(opened.warnings.isEmpty)
    #expect(Self.summary(opened.database) == Self.summary(database))
  }

  @Test func warningsSayWhatWasFound() {
    #expect(
      KDBXWarning.bytesAfterCompressedData(byteCount: 8).description
        == "payload has 8 bytes after the compressed data; written by another application; harmless, and a save "
        + "removes them")
    #expect(KDBXWarning.malformedFinalPadding(byteCount: 0).description.contains("has no padding"))
    #expect(KDBXWarning.malformedFinalPadding(byteCount: 3).description.contains("malformed padding (3 bytes"))
  }

  static let directory = Vectors.repositoryRoot + "/Vectors/kdbx/quirks"

  /// The committed files open with their warning and hold the content the builder puts there.
  /// `KDBX_WRITE_QUIRK_FIXTURES=1` writes them again first (`Vectors/kdbx/quirks/regenerate.sh`).
  @Test(arguments: QuirkFixtures.committed)
  func committedFixtureOpensWithItsWarning(_ recipe: Recipe) throws {
    let path = Self.directory + "/\(recipe.name).kdbx"
    let (built, database) = try QuirkFixtures.build(recipe)
    if ProcessInfo.processInfo.environment["KDBX_WRITE_QUIRK_FIXTURES"] == "1" {
      try Data(built).write(to: URL(fileURLWithPath: path))
      print("note: wrote \(path)")
    }
    let bytes = try #require(Vectors.readFile(atPath: path), "\(path) is missing")
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: QuirkFixtures.key)
    #expect(Self.expected(recipe, opened.warnings), "\(recipe.name): \(opened.warnings)")
    #expect(Self.summary(opened.database) == Self.summary(database))
    #expect(throws: KDBXError.invalidCredentials) {
      try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "wrong"))
    }
  }
}

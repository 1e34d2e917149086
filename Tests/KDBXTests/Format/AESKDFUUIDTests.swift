import Testing
import VectorSupport

@testable import KDBX

/// Issue #18: KDBX 4 files with AES-KDF carry KeePass 2's KDF UUID `c9d9f39a-628a-4460-bf74-0d08c18a4fea`, which
/// every reader knows; KeePassXC's alias `7c02bb82-79a7-4ac0-927d-114a00648238` (which KeePass 2.47 and pykeepass
/// refuse) is still read, and a file read with it is saved with KeePass 2's.
@Suite("AES-KDF UUID: KDBX 4 files carry KeePass 2's")
struct AESKDFUUIDTests {
  static let keePass2 = KnownUUIDs.aesKDFKDBX3.bytes
  static let alias = KnownUUIDs.aesKDFKDBX4.bytes

  static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
    guard bytes.count >= needle.count else { return false }
    return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<($0 + needle.count)]) == needle }
  }

  @Test(arguments: [KDBXVersion.v4_0, .v4_1], [KDFAlgorithm.aesKDBX3, .aesKDBX4])
  func savesWriteTheKeePass2UUID(_ version: KDBXVersion, _ variant: KDFAlgorithm) throws {
    var random = SplitMix64(seed: 18)
    let database = Database.new(name: "uuid", clock: FixedClock(Timestamp(unixSeconds: 0)), random: &random)
    let kdf = KDFParameters.aesKDF(
      AESKDFParameters(rounds: 100, seed: [UInt8](repeating: 0, count: 32), uuidVariant: variant))
    let key = CompositeKey(password: "pw")
    let bytes = try KDBXFile.saveBlocking(database, key: key, settings: SaveSettings(version: version, kdf: kdf))
    let header = try KDBXFile.readHeader(bytes: bytes).header
    #expect(Self.contains(header.rawBytes, Self.keePass2))
    #expect(!Self.contains(header.rawBytes, Self.alias))
    #expect(header.kdf.algorithm == .aesKDBX3)
    #expect(try KDBXFile.openBlocking(bytes: bytes, key: key).database.meta.databaseName == "uuid")
  }

  @Test func aliasFilesOpenAndAreSavedWithTheKeePass2UUID() throws {
    let recipe = QuirkFixtures.Recipe(
      name: "kdbx40-aes256-alias-uuid", version: .v4_0, cipher: .aes256, aliasKDFUUID: true)
    let (bytes, _) = try QuirkFixtures.build(recipe)
    let key = QuirkFixtures.key
    #expect(Self.contains(try KDBXFile.readHeader(bytes: bytes).header.rawBytes, Self.alias))
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: key)
    #expect(opened.header.kdf.algorithm == .aesKDBX4)
    #expect(opened.warnings.isEmpty)
    let saved = try KDBXFile.saveBlocking(opened.database, key: key, settings: SaveSettings(keeping: opened))
    let header = try KDBXFile.readHeader(bytes: saved).header
    #expect(Self.contains(header.rawBytes, Self.keePass2))
    #expect(!Self.contains(header.rawBytes, Self.alias))
    #expect(try KDBXFile.openBlocking(bytes: saved, key: key).database == opened.database)
    // AES-KDF fits KDBX 3.1 whichever UUID the file had: converting loses nothing.
    var settings = SaveSettings(keeping: opened)
    settings.version = .v3_1
    #expect(!VersionRequirements.features(of: opened.database, settings: settings).contains(.kdf))
  }
}

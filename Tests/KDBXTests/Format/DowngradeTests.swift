import KDBX
import Testing
import VectorSupport

/// Writing content to an older version through the real codec (issue #7 "Write"): the report lists each loss, a
/// save without the accepted report raises the version to the minimum the content needs and keeps everything, and
/// only the exact accepted report writes the older version and drops what it lists. Also: byte-for-byte
/// reproducible saves with an injected generator and the standard primitives.
@Suite struct DowngradeTests {
  static let key = CompositeKey(password: "fixture")
  static let parent = KDBXUUID(bytes: [UInt8](repeating: 7, count: 16))

  static func open(_ name: String) throws -> OpenedDatabase {
    try KDBXFile.openBlocking(bytes: try #require(Fixture(name: name).bytes), key: key)
  }

  static func save(_ database: Database, _ settings: SaveSettings, seed: UInt64 = 1) throws -> [UInt8] {
    var random = SplitMix64(seed: seed)
    return try KDBXFile.save(database, key: key, settings: settings, primitives: StandardPrimitives(), random: &random)
  }

  /// The KDBX 4.1 fixture with every 4.1-only feature: group tags and custom icon names (already there), plus
  /// QualityCheck, PreviousParentGroup and custom data item times.
  static func database41() throws -> (Database, SaveSettings) {
    let opened = try open("kdbx41-aes256-aeskdf")
    var database = opened.database
    let time = Timestamp(unixSeconds: 1_746_057_600)  // 2025-05-01
    database.root?.groups[0].previousParentGroup = parent
    database.root?.groups[0].entries[0].qualityCheck = false
    database.root?.groups[0].entries[0].previousParentGroup = parent
    database.root?.groups[0].entries[0].customData = CustomData(items: [
      .init(key: "k", value: "v", lastModificationTime: time)
    ])
    return (database, SaveSettings(keeping: opened))
  }

  @Test func kdbx41ContentAsKDBX40() throws {
    var (database, settings) = try Self.database41()
    #expect(database.root?.groups.contains { !($0.tagsText ?? "").isEmpty } == true)
    #expect(database.meta.customIcons?.contains { $0.name != nil } == true)
    settings.version = .v4_0
    let report = DowngradeReport(database: database, settings: settings, target: .v4_0)
    #expect(
      Set(report.lostFeatures) == [
        .groupTags, .customIconMetadata, .previousParentGroup, .qualityCheckDisabled, .customDataItemModificationTime,
      ])
    #expect(report.lostFeatures.count == Set(report.lostFeatures).count)
    #expect(VersionRequirements.minimumVersion(for: database, settings: settings) == .v4_1)

    // Not accepted: the version is raised to 4.1 and nothing is lost.
    let raised = try KDBXFile.openBlocking(bytes: try Self.save(database, settings), key: Self.key)
    #expect(raised.header.version == .v4_1)
    #expect(raised.database.root?.groups[0].previousParentGroup == Self.parent)
    #expect(raised.database.root?.groups[0].entries[0].qualityCheck == false)

    // A report for other content is not an acceptance.
    var stale = settings
    stale.acceptedDowngrade = DowngradeReport(
      database: Database(root: Group(uuid: .zero, name: "x")), settings: settings, target: .v4_0)
    #expect(try KDBXFile.readVersion(bytes: try Self.save(database, stale)) == .v4_1)

    // Accepted: 4.0 is written and each listed feature is gone.
    settings.acceptedDowngrade = report
    let written = try Self.save(database, settings)
    let downgraded = try KDBXFile.openBlocking(bytes: written, key: Self.key)
    #expect(downgraded.header.version == .v4_0)
    let after = downgraded.database
    #expect(after.root?.groups.allSatisfy { ($0.tagsText ?? "").isEmpty } == true)
    #expect(after.meta.customIcons?.allSatisfy { $0.name == nil && $0.lastModificationTime == nil } == true)
    #expect(after.root?.groups[0].previousParentGroup == nil)
    #expect(after.root?.groups[0].entries[0].previousParentGroup == nil)
    #expect(after.root?.groups[0].entries[0].qualityCheck != false)
    let items = after.root?.groups[0].entries[0].customData?.items ?? []
    #expect(items.map { $0.key } == ["k"])
    #expect(items.allSatisfy { $0.lastModificationTime == nil })
    // What 4.0 can carry is kept: the entry still has its fields and the 4.0 file needs nothing newer.
    #expect(VersionRequirements.minimumVersion(for: after, settings: SaveSettings(keeping: downgraded)) <= .v4_0)
  }

  @Test func kdbx4ContentAsKDBX31() throws {
    let opened = try Self.open("kdbx40-chacha20-argon2id")
    let database = opened.database
    var settings = SaveSettings(keeping: opened)
    settings.version = .v3_1
    let report = DowngradeReport(database: database, settings: settings, target: .v3_1)
    // Entry custom data and Argon2 need 4.0; the ChaCha20 payload cipher is valid in 3.1 (see kdbx31-chacha20-*).
    #expect(Set(report.lostFeatures) == [.groupOrEntryCustomData, .kdf])
    #expect(try KDBXFile.readVersion(bytes: try Self.save(database, settings)) == .v4_0)

    // Accepting the loss with Argon2 still selected cannot write 3.1 (it stores AES-KDF only): a clear error.
    settings.acceptedDowngrade = report
    #expect(throws: KDBXError.malformedHeader(field: "KdfParameters", reason: "KDBX 3.x supports AES-KDF only")) {
      try Self.save(database, settings)
    }

    // With AES-KDF chosen, the accepted report lists only the custom data, and 3.1 is written without it.
    settings.kdf = .aesKDF(AESKDFParameters(rounds: 1_000, seed: [UInt8](repeating: 0, count: 32)))
    settings.acceptedDowngrade = DowngradeReport(database: database, settings: settings, target: .v3_1)
    #expect(settings.acceptedDowngrade?.lostFeatures == [.groupOrEntryCustomData])
    let downgraded = try KDBXFile.openBlocking(bytes: try Self.save(database, settings), key: Self.key)
    #expect(downgraded.header.version == .v3_1)
    #expect(downgraded.header.cipher == .chaCha20)
    #expect(downgraded.database.meta.headerHash != nil)
    var customData = 0
    func count(_ group: Group) {
      customData += group.customData?.items.count ?? 0
      for entry in group.entries { customData += entry.customData?.items.count ?? 0 }
      group.groups.forEach(count)
    }
    if let root = downgraded.database.root { count(root) }
    #expect(customData == 0)
    #expect(downgraded.database.flatEntries.count == database.flatEntries.count)
  }

  /// A KDBX 3.1 file with 4.x content added is raised automatically: custom data to 4.0, group tags to 4.1.
  @Test func automaticRaiseToTheMinimumVersion() throws {
    let opened = try Self.open("kdbx31-aes256-aeskdf")
    var database = opened.database
    let settings = SaveSettings(keeping: opened)
    #expect(try KDBXFile.readVersion(bytes: try Self.save(database, settings)) == .v3_1)
    database.root?.groups[0].entries[0].customData = CustomData(items: [.init(key: "plugin", value: "1")])
    #expect(try KDBXFile.readVersion(bytes: try Self.save(database, settings)) == .v4_0)
    database.root?.groups[0].tagsText = "team"
    let raised = try KDBXFile.openBlocking(bytes: try Self.save(database, settings), key: Self.key)
    #expect(raised.header.version == .v4_1)
    #expect(raised.database.root?.groups[0].tagsText == "team")
  }

  /// Same generator seed, same bytes; another seed, other bytes (real ciphers, KDF, gzip and XML).
  @Test(arguments: ["kdbx31-aes256-aeskdf", "kdbx41-chacha20-argon2id", "kdbx40-twofish-aeskdf"])
  func savesAreByteForByteReproducible(_ name: String) throws {
    let opened = try Self.open(name)
    let settings = SaveSettings(keeping: opened)
    let first = try Self.save(opened.database, settings, seed: 42)
    let second = try Self.save(opened.database, settings, seed: 42)
    #expect(first == second)
    #expect(try Self.save(opened.database, settings, seed: 43) != first)
  }
}

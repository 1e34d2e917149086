import KDBX
import Testing
import VectorSupport

@Suite struct VersionRequirementsTests {
  static let aes = KDBXFileTests.aes

  @Test func minimumVersionFollowsKeePassRules() throws {
    var database = Database(root: Group(uuid: .zero, name: "Root"))
    let settings = SaveSettings(version: .v3_1, kdf: Self.aes)
    #expect(VersionRequirements.minimumVersion(for: database, settings: settings) == .v3_1)
    #expect(
      VersionRequirements.minimumVersion(
        for: database, settings: SaveSettings(version: .v3_1, kdf: KDBXFileTests.argon)) == .v4_0)
    var entry = Entry(uuid: .zero)
    entry.customData = CustomData(items: [.init(key: "k", value: "v")])
    database.root?.entries.append(entry)
    #expect(VersionRequirements.features(of: database, settings: settings) == [.groupOrEntryCustomData])
    #expect(VersionRequirements.minimumVersion(for: database, settings: settings) == .v4_0)
    database.root?.tagsText = "a;b"
    #expect(VersionRequirements.minimumVersion(for: database, settings: settings) == .v4_1)
    database.root?.tagsText = ""
    var old = Entry(uuid: .zero)
    old.qualityCheck = false
    database.root?.entries[0].history = [old]
    #expect(
      VersionRequirements.features(of: database, settings: settings) == [
        .groupOrEntryCustomData, .qualityCheckDisabled,
      ])
  }

  @Test func downgradeNeedsTheExactAcceptedReport() throws {
    var database = Database(root: Group(uuid: .zero, name: "Root"))
    database.root?.tagsText = "t"
    var settings = SaveSettings(version: .v3_1, kdf: Self.aes)
    #expect(VersionRequirements.effectiveVersion(for: database, settings: settings) == .v4_1)
    let report = DowngradeReport(database: database, settings: settings, target: .v3_1)
    #expect(report.lostFeatures == [.groupTags])
    settings.acceptedDowngrade = report
    #expect(VersionRequirements.effectiveVersion(for: database, settings: settings) == .v3_1)
    // New content after acceptance invalidates the report.
    database.root?.previousParentGroup = KDBXUUID(bytes: [UInt8](repeating: 1, count: 16))
    #expect(VersionRequirements.effectiveVersion(for: database, settings: settings) == .v4_1)

    var random = SplitMix64(seed: 30)
    database.root?.previousParentGroup = nil
    let file = try KDBXFile.save(
      database, key: CompositeKey(password: "p"), settings: settings, primitives: FakePrimitives(), random: &random)
    #expect(try KDBXFile.readVersion(bytes: file) == .v3_1)
    let opened = try KDBXFile.open(
      bytes: file, key: CompositeKey(password: "p"), primitives: FakePrimitives(), random: &random)
    #expect(opened.database.root?.tagsText == nil)
    #expect(opened.database.meta.headerHash == SHA256Helper.hash(opened.header.rawBytes))
  }
}

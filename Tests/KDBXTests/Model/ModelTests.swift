import KDBX
import KDBXXML
import Testing
import VectorSupport

@Suite struct ModelTests {
  static let clock = FixedClock(Timestamp(unixSeconds: 1_600_000_000))

  @Test func newDatabaseHasKeePassDefaultsAndRoundTrips() throws {
    var random = SplitMix64(seed: 40)
    var database = Database.new(name: "Vault", clock: Self.clock, random: &random)
    var entry = Entry.new(clock: Self.clock, random: &random)
    entry[field: Entry.titleField] = .plain("Mail")
    entry[field: Entry.passwordField] = .protected(ProtectedValue("pw", using: &random))
    database.root?.entries.append(entry)
    #expect(database.meta.historyMaxItems == 10)
    #expect(database.meta.historyMaxSize == 6_291_456)
    #expect(database.meta.memoryProtection?.protectPassword == true)
    #expect(database.root?.times?.creationTime == Self.clock.time)
    #expect(entry.fields.map(\.key) == ["Title", "UserName", "Password", "URL", "Notes"])
    #expect(
      VersionRequirements.minimumVersion(for: database, settings: SaveSettings(version: .v3_1, kdf: KDBXFileTests.aes))
        == .v3_1)

    for version in [KDBXVersion.v3_1, .v4_0] {
      var writeStream = CountingStream()
      let document = DatabaseXMLWriter.write(database, version: version, stream: &writeStream)
      var readStream = CountingStream()
      let back = try DatabaseXMLReader.read(
        document: document, stream: &readStream, random: &random, gzip: NoGzipDecompressor())
      #expect(back.root?.entries.first?[field: "Password"]?.reveal() == "pw")
      #expect(back.root?.entries.first?.times?.creationTime == entry.times?.creationTime)
      #expect(back.root?.entries.first?.times?.usageCount == 0)
      #expect(back.meta.databaseName == "Vault")
      #expect(back.root?.enableAutoType == .some(nil))
    }
  }

  @Test func touchCountsUses() {
    var random = SplitMix64(seed: 41)
    var entry = Entry.new(clock: Self.clock, random: &random)
    let later = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
    entry.touch(modified: false, clock: later)
    #expect(entry.times?.usageCount == 1)
    #expect(entry.times?.lastAccessTime == later.time)
    #expect(entry.times?.lastModificationTime == Self.clock.time)
    entry.touch(modified: true, clock: later)
    #expect(entry.times?.lastModificationTime == later.time)
  }

  @Test func uuidsAreRandomAndDistinct() {
    var random = SplitMix64(seed: 42)
    let a = KDBXUUID.random(using: &random)
    let b = KDBXUUID.random(using: &random)
    #expect(a != b && !a.isZero)
  }
}

@Suite struct ModelHelperTests {
  @Test func tagsSplitOnSemicolonAndComma() {
    #expect(splitTags("web; test,,  mail ") == ["web", "test", "mail"])
    #expect(splitTags(nil) == [])
    #expect(splitTags("") == [])
  }

  @Test func attachmentsShareThePool() {
    var database = Database(root: Group(uuid: .zero, name: "Root"))
    let a = database.makeAttachment(name: "a.txt", data: [1, 2, 3])
    let b = database.makeAttachment(name: "copy.txt", data: [1, 2, 3])
    #expect(a.binaryIndex == b.binaryIndex)
    #expect(database.contents(of: b) == [1, 2, 3])
    #expect(database.binaries.count == 1)
  }

  @Test func errorDescriptionsNameTheProblem() {
    #expect(KDBXError.corruptedBlock(index: 3).description == "corrupted block 3")
    #expect(
      KDBXError.compression(.truncated(offset: 9)).description == "compressed payload damaged (truncated) at offset 9")
    #expect(
      KDBXError.malformedHeader(field: "MasterSeed", reason: "must be 32 bytes, got 3").description
        == "malformed header field MasterSeed: must be 32 bytes, got 3")
  }

  @Test func deepButAllowedNestingDoesNotOverflow() throws {
    var group = XMLElement(name: "Group")
    for _ in 0..<300 { group = XMLElement(name: "Group", children: [.element(group)]) }
    let document = XMLElement(
      name: "KeePassFile", children: [.element(XMLElement(name: "Root", children: [.element(group)]))])
    var stream = CountingStream()
    var random = SplitMix64(seed: 43)
    let database = try DatabaseXMLReader.read(
      document: document, stream: &stream, random: &random, gzip: NoGzipDecompressor())
    var depth = 0
    var current = database.root
    while let next = current?.groups.first {
      depth += 1
      current = next
    }
    #expect(depth == 300)
  }
}

@Suite struct BinaryCompactionTests {
  @Test func unreferencedBinariesAreDroppedAndReferencesRenumbered() {
    var database = Database(root: Group(uuid: .zero, name: "Root"))
    let unused = database.makeAttachment(name: "gone", data: [9])
    let first = database.makeAttachment(name: "a", data: [1])
    let second = database.makeAttachment(name: "b", data: [2], isProtected: true)
    #expect(unused.binaryIndex == 0)
    var entry = Entry(uuid: .zero)
    entry.attachments = [second]
    var old = Entry(uuid: .zero)
    old.attachments = [first, second]
    entry.history = [old]
    database.root?.entries = [entry]
    let compacted = database.compactingBinaries()
    #expect(compacted.binaries.count == 2)
    let current = compacted.root?.entries.first
    #expect(current.flatMap { compacted.contents(of: $0.attachments[0]) } == [2])
    #expect(compacted.binaries[current?.attachments[0].binaryIndex ?? -1]?.isProtected == true)
    #expect(current?.history?.first.map { $0.attachments.compactMap { compacted.contents(of: $0) } } == [[1], [2]])
  }

  /// A pool already in first-use order comes back unchanged; any change to it (an unused binary, another order, a
  /// duplicate, a protection flag a duplicate would merge) still renumbers.
  @Test func aCompactPoolIsKeptAndEveryOtherIsRebuilt() {
    var database = Database(root: Group(uuid: .zero, name: "Root"))
    let first = database.makeAttachment(name: "a", data: [1])
    let second = database.makeAttachment(name: "b", data: [2])
    var entry = Entry(uuid: .zero)
    entry.attachments = [first]
    var other = Entry(uuid: .zero)
    other.attachments = [second, first]
    var sub = Group(uuid: .zero, name: "Sub")
    sub.entries = [other]
    database.root?.entries = [entry]
    database.root?.groups = [sub]
    #expect(database.compactingBinaries() == database)

    // Referenced in the other order: renumbered.
    var swapped = database
    swapped.root?.entries[0].attachments = [second]
    let compacted = swapped.compactingBinaries()
    #expect(compacted != swapped)
    #expect(compacted.root?.entries[0].attachments[0].binaryIndex == 0)
    #expect(compacted.binaries[0]?.data == [2])
    #expect(compacted.root?.groups[0].entries[0].attachments.map(\.binaryIndex) == [0, 1])
    #expect(compacted.compactingBinaries() == compacted)

    // An unreferenced binary at the end is dropped.
    var extra = database
    _ = extra.makeAttachment(name: "unused", data: [3])
    #expect(extra.compactingBinaries().binaries.count == 2)
    #expect(extra.compactingBinaries() == database)
  }
}

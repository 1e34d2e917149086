import KDBXBase
import KDBXCrypto
import KDBXXML
import Testing
import VectorSupport

@testable import KDBX
@testable import KDBXImport

/// KeePass 1.x import on files built by ``KDB1Fixture``: the mapping to the model, the keys, wrong key versus
/// damage, the group tree, meta-streams and every bound on untrusted bytes.
@Suite struct KDB1Tests {
  static let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))

  static func open(
    _ bytes: [UInt8], key: CompositeKey, options: LoadOptions = .default
  ) throws(KDBXError) -> KDB1OpenedDatabase {
    var random = SplitMix64(seed: 7)
    return try KDB1File.open(
      bytes: bytes, key: key, primitives: StandardPrimitives(), clock: clock, random: &random, options: options)
  }

  static func error(_ bytes: [UInt8], key: CompositeKey, options: LoadOptions = .default) -> KDBXError? {
    do {
      _ = try open(bytes, key: key, options: options)
      return nil
    } catch {
      return error
    }
  }

  static func iso(_ timestamp: Timestamp?) -> String { timestamp.map(ISO8601.format) ?? "nil" }

  static func entry(_ database: Database, _ title: String) -> (path: [String], entry: Entry)? {
    database.flatEntries.first { $0.entry[field: Entry.titleField]?.reveal() == title }.map { ($0.groupPath, $0.entry) }
  }

  static func isDamage(_ error: KDBXError?) -> Bool {
    if case .damagedContent? = error { return true }
    return false
  }

  static func isMalformedRecord(_ error: KDBXError?) -> Bool {
    if case .malformedRecord? = error { return true }
    return false
  }

  @Test func sampleMapsGroupsEntriesAndTimes() throws {
    let bytes = try KDB1Fixture.sample().file(password: "pw")
    let opened = try Self.open(bytes, key: CompositeKey(password: "pw"))
    #expect(opened.passwordEncoding == .windows1252)
    #expect(opened.header.cipher == .aes256)
    #expect(opened.header.transformRounds == 8)
    let database = opened.database
    let root = try #require(database.root)
    #expect(root.name == "Root")
    #expect(root.groups.map { $0.name } == ["General", "Backup"])
    let general = root.groups[0]
    #expect(general.iconID == 48 && general.isExpanded == true)
    #expect(general.groups.map { $0.name } == ["Sub"])
    #expect(general.groups[0].iconID == 38 && general.groups[0].isExpanded == false)
    let backup = root.groups[1]
    #expect(backup.enableSearching == .some(false) && backup.enableAutoType == .some(false))
    #expect(general.enableSearching == .some(nil))
    #expect(Self.iso(general.times?.creationTime) == "2010-03-04T05:06:07Z")

    let mail = try #require(Self.entry(database, "Mail"))
    #expect(mail.path == ["General"])
    #expect(mail.entry.uuid.bytes == KDB1Fixture.uuid(1))
    #expect(mail.entry[field: Entry.userNameField]?.reveal() == "me")
    #expect(mail.entry[field: Entry.passwordField]?.isProtected == true)
    #expect(mail.entry[field: Entry.passwordField]?.reveal() == "s3cret")
    #expect(mail.entry[field: Entry.urlField]?.reveal() == "https://mail.example")
    #expect(mail.entry[field: Entry.notesField]?.reveal() == "line 1\nline 2")
    #expect(mail.entry.iconID == 19)
    #expect(mail.entry.fields.map { $0.key } == ["Title", "UserName", "Password", "URL", "Notes"])
    #expect(Self.iso(mail.entry.times?.creationTime) == "2010-03-04T05:06:07Z")
    #expect(Self.iso(mail.entry.times?.lastModificationTime) == "2010-03-04T05:06:07Z")
    #expect(Self.iso(mail.entry.times?.expiryTime) == "2030-01-02T03:04:05Z")
    #expect(mail.entry.times?.expires == true)

    let doc = try #require(Self.entry(database, "Doc"))
    #expect(doc.path == ["General", "Sub"])
    #expect(doc.entry.attachments.map { $0.name } == ["note.txt"])
    #expect(doc.entry.attachments.first.flatMap { database.contents(of: $0) } == Array("hello\n".utf8))
    let old = try #require(Self.entry(database, "Old"))
    #expect(old.path == ["Backup"])
    #expect(old.entry.attachments.isEmpty)
    // KeePass 1.x's "never" stays as the expiry time, not expiring.
    #expect(Self.iso(old.entry.times?.expiryTime) == "2999-12-28T23:59:59Z")
    #expect(old.entry.times?.expires == false)
  }

  @Test func convertedDatabaseSavesAsKDBXAndReopens() throws {
    let opened = try Self.open(try KDB1Fixture.sample().file(password: "pw"), key: CompositeKey(password: "pw"))
    let key = CompositeKey(password: "pw")
    var random = SplitMix64(seed: 3)
    let settings = SaveSettings(version: .v4_0, cipher: .aes256, kdf: .aesKDF(AESKDFParameters(rounds: 10, seed: [])))
    let bytes = try KDBXFile.save(
      opened.database, key: key, settings: settings, primitives: StandardPrimitives(), random: &random)
    let reopened = try KDBXFile.openBlocking(bytes: bytes, key: key).database
    func summary(_ database: Database) -> [String] {
      database.flatEntries.map { item in
        let entry = item.entry
        let fields = entry.fields.map { "\($0.key)=\($0.value.reveal())" }.joined(separator: ",")
        let files = entry.attachments.map { "\($0.name):\(database.contents(of: $0) ?? [])" }.joined(separator: ",")
        return "\(item.groupPath) \(entry.uuid) \(fields) \(files) \(Self.iso(entry.times?.expiryTime))"
          + " \(entry.times?.expires ?? false) \(entry.iconID ?? -1)"
      }
    }
    #expect(summary(reopened) == summary(opened.database))
    #expect(summary(reopened).count == 3)
    #expect(reopened.root?.groups.map { $0.uuid } == opened.database.root?.groups.map { $0.uuid })
  }

  @Test func wrongPasswordIsInvalidCredentials() throws {
    let bytes = try KDB1Fixture.sample().file(password: "pw")
    #expect(Self.error(bytes, key: CompositeKey(password: "PW")) == .invalidCredentials)
    #expect(Self.error(bytes, key: CompositeKey(password: nil)) == .invalidCredentials)
    var twofish = KDB1Fixture.sample()
    twofish.cipher = .twofish
    let twofishBytes = try twofish.file(password: "pw")
    #expect(Self.error(twofishBytes, key: CompositeKey(password: "pw!")) == .invalidCredentials)
    #expect(try Self.open(twofishBytes, key: CompositeKey(password: "pw")).header.cipher == .twofish)
  }

  /// KeePass 1.x for Windows hashed CP-1252, KeePassX Latin-1 and, earlier, UTF-8; each opens, and the encoding
  /// that did is reported.
  @Test(arguments: [
    ([0x80, 0x75, 0x72, 0x6F] as [UInt8], KDB1PasswordEncoding.windows1252),  // "€uro" in CP-1252
    ([0x3F, 0x75, 0x72, 0x6F], .latin1),  // Latin-1 has no €: KeePassX wrote "?"
    ([0xE2, 0x82, 0xAC, 0x75, 0x72, 0x6F], .utf8),
  ])
  func passwordEncodings(_ item: ([UInt8], KDB1PasswordEncoding)) throws {
    let fixture = KDB1Fixture.sample()
    let bytes = try fixture.file(rawKey: KDB1Fixture.rawKey(password: item.0, keyFileKey: nil))
    let opened = try Self.open(bytes, key: CompositeKey(password: "€uro"))
    #expect(opened.passwordEncoding == item.1)
    #expect(try Self.open(bytes, key: CompositeKey(passwordBytes: Array("€uro".utf8))).passwordEncoding == item.1)
  }

  /// Password bytes that are not UTF-8 are used as they are.
  @Test func rawPasswordBytes() throws {
    let password: [UInt8] = [0x84, 0x70, 0x94]  // CP-1252 „p”
    let bytes = try KDB1Fixture.sample().file(rawKey: KDB1Fixture.rawKey(password: password, keyFileKey: nil))
    #expect(try Self.open(bytes, key: CompositeKey(passwordBytes: password)).passwordEncoding == .utf8)
    #expect(try Self.open(bytes, key: CompositeKey(password: "„p”")).passwordEncoding == .windows1252)
  }

  @Test func keyFilesInEveryForm() throws {
    let fixture = KDB1Fixture.sample()
    let raw32 = (0..<32).map { UInt8($0 * 7 & 0xFF) }
    let hex64 = Array(Hex.encode(raw32).utf8)
    let other = Array("any file at all\n".utf8)
    let xml = Array(
      """
      <?xml version="1.0" encoding="utf-8"?>
      <KeyFile><Meta><Version>1.00</Version></Meta><Key><Data>\(Base64.encode(raw32))</Data></Key></KeyFile>
      """.utf8)
    let forms: [([UInt8], [UInt8])] = [
      (raw32, raw32), (hex64, raw32), (other, SHA256.hash(other).bytes),
      // KeePass 1.x knows no XML key files: it hashes the whole file.
      (xml, SHA256.hash(xml).bytes),
    ]
    for (contents, key) in forms {
      let keyFile = try KeyFile(contents: contents)
      let alone = try fixture.file(rawKey: key)
      #expect(try Self.open(alone, key: CompositeKey(password: nil, keyFile: keyFile)).passwordEncoding == nil)
      // An empty password with a key file is the key file alone, as KeePass 1.x reads it.
      #expect(throws: Never.self) { try Self.open(alone, key: CompositeKey(password: "", keyFile: keyFile)) }
      let both = try fixture.file(rawKey: SHA256.hash(SHA256.hash(Array("pw".utf8)).bytes + key).bytes)
      #expect(try Self.open(both, key: CompositeKey(password: "pw", keyFile: keyFile)).passwordEncoding == .windows1252)
      #expect(Self.error(both, key: CompositeKey(password: nil, keyFile: keyFile)) == .invalidCredentials)
      #expect(Self.error(both, key: CompositeKey(password: "pw")) == .invalidCredentials)
    }
    // The XML key file's own key (what KDBX uses) does not open a KeePass 1.x file made with the file's hash.
    let xmlKeyFile = try KeyFile(contents: xml)
    #expect(xmlKeyFile.keyBytes == raw32)
    #expect(Self.error(try fixture.file(rawKey: raw32), key: CompositeKey(password: nil, keyFile: xmlKeyFile)) != nil)
  }

  @Test func challengeResponseAndTransformedKeys() throws {
    let bytes = try KDB1Fixture.sample().file(password: "pw")
    guard case .invalidKeyFile? = Self.error(bytes, key: CompositeKey(password: "pw", challengeResponse: [1, 2])) else {
      Issue.record("a challenge-response key was not refused")
      return
    }
    let opened = try Self.open(bytes, key: CompositeKey(password: "pw"))
    let cached = try CompositeKey(transformedKey: opened.transformedKey)
    #expect(try Self.open(bytes, key: cached).database.flatEntries.count == 3)
    #expect(
      Self.error(bytes, key: try CompositeKey(transformedKey: [UInt8](repeating: 1, count: 32))) == .invalidCredentials)
  }

  /// With the right key, damage anywhere in the content, the IV, the end or the content hash reads as damage; a
  /// wrong key reads as a wrong key.
  @Test(arguments: [CipherAlgorithm.aes256, .twofish])
  func damageIsToldFromAWrongKey(_ cipher: CipherAlgorithm) throws {
    var fixture = KDB1Fixture.sample()
    fixture.cipher = cipher
    let bytes = try fixture.file(password: "pw")
    let key = CompositeKey(password: "pw")
    let start = KDB1Header.byteCount
    #expect(bytes.count - start >= 64)
    var cases: [(String, [UInt8])] = []
    for offset in [start, start + 20, (start + bytes.count) / 2, bytes.count - 17, bytes.count - 1] {
      var copy = bytes
      copy[offset] ^= 0x01
      cases.append(("ciphertext byte \(offset)", copy))
    }
    var iv = bytes
    iv[32] ^= 0x80
    cases.append(("IV", iv))
    var hash = bytes
    hash[56] ^= 0x01
    cases.append(("content hash", hash))
    cases.append(("last block cut", Array(bytes.dropLast(16))))
    cases.append(("two blocks cut", Array(bytes.dropLast(32))))
    for (name, mutated) in cases {
      #expect(
        Self.isDamage(Self.error(mutated, key: key)), "\(name): \(String(describing: Self.error(mutated, key: key)))")
    }
    #expect(Self.error(bytes, key: CompositeKey(password: "wrong")) == .invalidCredentials)
    #expect(Self.error(Array(bytes.dropLast(3)), key: key) == .truncated(offset: bytes.count - 3, needed: 3))
  }

  @Test func groupTreeFromLevels() throws {
    var fixture = KDB1Fixture()
    fixture.groups = [
      KDB1Fixture.group(id: 1, name: "A", level: 0), KDB1Fixture.group(id: 2, name: "A1", level: 1),
      KDB1Fixture.group(id: 3, name: "A1a", level: 2), KDB1Fixture.group(id: 4, name: "A2", level: 1),
      KDB1Fixture.group(id: 5, name: "B", level: 0), KDB1Fixture.group(id: 6, name: "B1", level: 1),
    ]
    fixture.entries = [KDB1Fixture.entry(uuid: KDB1Fixture.uuid(9), groupID: 3, title: "deep")]
    let database = try Self.open(fixture.file(password: "pw"), key: CompositeKey(password: "pw")).database
    var paths: [String] = []
    func walk(_ group: Group, _ path: [String]) {
      for child in group.groups {
        paths.append((path + [child.name]).joined(separator: "/"))
        walk(child, path + [child.name])
      }
    }
    walk(try #require(database.root), [])
    #expect(paths == ["A", "A/A1", "A/A1/A1a", "A/A2", "B", "B/B1"])
    #expect(Self.entry(database, "deep")?.path == ["A", "A1", "A1a"])

    // A level that skips one, or a first group below level 0, has no parent: refused, as KeePassXC refuses it.
    for levels: [UInt16] in [[0, 2], [1], [0, 1, 3]] {
      var broken = KDB1Fixture()
      broken.groups = levels.enumerated().map { KDB1Fixture.group(id: UInt32($0.offset), name: "G", level: $0.element) }
      #expect(Self.isMalformedRecord(Self.error(try broken.file(password: "pw"), key: CompositeKey(password: "pw"))))
    }
    // Nesting is bounded so that the saved XML stays within the reader's depth limit.
    var deep = KDB1Fixture()
    deep.groups = (0..<8).map { KDB1Fixture.group(id: UInt32($0), name: "L\($0)", level: UInt16($0)) }
    let deepBytes = try deep.file(password: "pw")
    let limited = Self.error(deepBytes, key: CompositeKey(password: "pw"), options: LoadOptions(maxXMLDepth: 20))
    // maxXMLDepth 20: groups up to depth 4 (the root is 1, level 0 is 2), so level 3 (depth 5) is refused.
    #expect(limited == .limitExceeded(what: "group nesting depth", value: 5, limit: 4))
    #expect(throws: Never.self) { try Self.open(deepBytes, key: CompositeKey(password: "pw")) }
  }

  @Test func orphansUUIDsAndRepeatedGroupIDs() throws {
    var fixture = KDB1Fixture()
    fixture.groups = [KDB1Fixture.group(id: 1, name: "A", level: 0), KDB1Fixture.group(id: 1, name: "B", level: 0)]
    fixture.entries = [
      KDB1Fixture.entry(uuid: KDB1Fixture.uuid(1), groupID: 99, title: "orphan"),
      KDB1Fixture.entry(uuid: KDB1Fixture.uuid(1), groupID: 1, title: "same UUID"),
      KDB1Fixture.entry(uuid: [UInt8](repeating: 0, count: 16), groupID: 1, title: "zero UUID"),
    ]
    let database = try Self.open(fixture.file(password: "pw"), key: CompositeKey(password: "pw")).database
    let orphan = try #require(Self.entry(database, "orphan"))
    #expect(orphan.path == [])  // no group with ID 99: the root, as KeePassXC does
    #expect(orphan.entry.uuid.bytes == KDB1Fixture.uuid(1))
    let same = try #require(Self.entry(database, "same UUID"))
    #expect(same.path == ["B"])  // a repeated group ID names the last group with it, as in KeePassXC
    #expect(same.entry.uuid != orphan.entry.uuid)
    let zero = try #require(Self.entry(database, "zero UUID"))
    #expect(!zero.entry.uuid.isZero)
    #expect(Set(database.flatEntries.map { $0.entry.uuid }).count == 3)
  }

  @Test func metaStreamsAreConsumed() throws {
    var fixture = KDB1Fixture()
    fixture.groups = [
      KDB1Fixture.group(id: 1, name: "A", level: 0, flags: 1), KDB1Fixture.group(id: 2, name: "B", level: 0),
    ]
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
    var icons = KDB1Fixture.uint32(1) + KDB1Fixture.uint32(1) + KDB1Fixture.uint32(1)
    icons += KDB1Fixture.uint32(UInt32(png.count)) + png
    icons += KDB1Fixture.uuid(5) + KDB1Fixture.uint32(0)
    icons += KDB1Fixture.uint32(2) + KDB1Fixture.uint32(0)
    let treeState = KDB1Fixture.uint32(2) + KDB1Fixture.uint32(1) + [0] + KDB1Fixture.uint32(2) + [1]
    var lookalike = KDB1Fixture.metaStream("Not a stream", data: [1], groupID: 1)
    lookalike[2] = KDB1Fixture.Field(type: 3, data: KDB1Fixture.uint32(7))  // icon 7: an ordinary entry
    fixture.entries = [
      KDB1Fixture.entry(uuid: KDB1Fixture.uuid(5), groupID: 1, title: "custom", image: 70),
      KDB1Fixture.metaStream("KPX_CUSTOM_ICONS_4", data: icons, groupID: 1),
      KDB1Fixture.metaStream("KPX_GROUP_TREE_STATE", data: treeState, groupID: 1),
      KDB1Fixture.metaStream("Default User Name", data: Array("jdoe".utf8) + [0], groupID: 1),
      KDB1Fixture.metaStream("Simple UI State", data: [UInt8](repeating: 0, count: 40), groupID: 1),
      lookalike,
    ]
    let opened = try Self.open(fixture.file(password: "pw"), key: CompositeKey(password: "pw"))
    let database = opened.database
    #expect(
      opened.metaStreams == ["KPX_CUSTOM_ICONS_4", "KPX_GROUP_TREE_STATE", "Default User Name", "Simple UI State"])
    #expect(database.flatEntries.map { $0.entry[field: Entry.titleField]?.reveal() ?? "" } == ["custom", "Meta-Info"])
    let icon = try #require(database.meta.customIcons?.first)
    #expect(database.meta.customIcons?.count == 1 && icon.data == png)
    let custom = try #require(Self.entry(database, "custom")).entry
    #expect(custom.customIconUUID == icon.uuid)
    #expect(custom.iconID == 0)  // 70 is beyond the 69 standard icons
    let groups = try #require(database.root?.groups)
    #expect(groups[1].customIconUUID == icon.uuid)
    #expect(groups[0].isExpanded == false && groups[1].isExpanded == true)  // the tree state overrides the flags
    #expect(database.meta.defaultUserName == "jdoe")
  }

  /// Group and custom icon UUIDs come from the file (group IDs, icon data) and so do the times, so a second import
  /// of the same file merges into the first without a change; only the root's UUID is new each time.
  @Test func importIsRepeatable() throws {
    var fixture = KDB1Fixture.sample()
    var icons = KDB1Fixture.uint32(1) + KDB1Fixture.uint32(1) + KDB1Fixture.uint32(0)
    icons += KDB1Fixture.uint32(3) + [1, 2, 3] + KDB1Fixture.uuid(1) + KDB1Fixture.uint32(0)
    fixture.entries.append(KDB1Fixture.metaStream("KPX_CUSTOM_ICONS_4", data: icons, groupID: 10))
    let bytes = try fixture.file(password: "pw")
    func open(seed: UInt64) throws -> Database {
      var random = SplitMix64(seed: seed)
      return try KDB1File.open(
        bytes: bytes, key: CompositeKey(password: "pw"), primitives: StandardPrimitives(),
        clock: FixedClock(Timestamp(unixSeconds: 1_700_000_000 + Int64(seed))), random: &random
      ).database
    }
    let first = try open(seed: 1)
    var second = try open(seed: 2)
    func uuids(_ database: Database) -> [KDBXUUID] {
      var result: [KDBXUUID] = []
      func walk(_ group: Group) {
        for child in group.groups {
          result.append(child.uuid)
          walk(child)
        }
      }
      if let root = database.root { walk(root) }
      return result + database.flatEntries.map { $0.entry.uuid } + (database.meta.customIcons ?? []).map { $0.uuid }
    }
    #expect(uuids(first) == uuids(second))
    #expect(uuids(first).count == 3 + 3 + 1)
    #expect(Set(uuids(first)).count == 7)
    #expect(first.root?.uuid != second.root?.uuid)
    #expect(first.flatEntries.first?.entry.customIconUUID == first.meta.customIcons?.first?.uuid)
    #expect(try #require(first.root?.groups.first).uuid == KDB1Import.groupUUID(10))
    // Everything else, times included, comes from the file: the latest time it records stands in for "now".
    second.root?.uuid = try #require(first.root?.uuid)
    #expect(first == second)
    #expect(Self.iso(first.root?.times?.creationTime) == "2010-03-04T05:06:07Z")
    #expect(Self.iso(first.meta.settingsChanged) == "2010-03-04T05:06:07Z")
  }

  /// KeePassX writes "never" in every time of a group: no time, as KeePassXC reads it, not the year 2999; what has
  /// no time gets the latest time the file records.
  @Test func neverIsNoTimeExceptForExpiry() throws {
    var fixture = KDB1Fixture.sample()
    fixture.groups[0] = KDB1Fixture.group(id: 10, name: "General", level: 0, time: KDB1Time.never)
    let latest = CivilDateTime(year: 2011, month: 6, day: 7, hour: 8, minute: 9, second: 10)
    fixture.groups[2] = KDB1Fixture.group(id: 12, name: "Backup", level: 0, time: latest)
    let database = try Self.open(fixture.file(password: "pw"), key: CompositeKey(password: "pw")).database
    let general = try #require(database.root?.groups.first)
    #expect(Self.iso(general.times?.creationTime) == "2011-06-07T08:09:10Z")
    #expect(Self.iso(general.times?.lastModificationTime) == "2011-06-07T08:09:10Z")
    #expect(Self.iso(general.times?.expiryTime) == "2999-12-28T23:59:59Z" && general.times?.expires == false)
    #expect(Self.iso(database.root?.times?.lastModificationTime) == "2011-06-07T08:09:10Z")
    #expect(Self.iso(database.meta.databaseNameChanged) == "2011-06-07T08:09:10Z")
  }

  @Test func unknownFieldsAreSkippedWrongSizesRefused() throws {
    var fixture = KDB1Fixture.sample()
    fixture.groups[0].append(KDB1Fixture.Field(type: 0x0042, data: [1, 2, 3]))
    fixture.entries[0].append(KDB1Fixture.Field(type: 0x0000, data: [9]))
    #expect(throws: Never.self) { try Self.open(fixture.file(password: "pw"), key: CompositeKey(password: "pw")) }
    for (record, index, field) in [
      (true, 0, KDB1Fixture.Field(type: 1, data: [1, 2, 3])), (true, 0, KDB1Fixture.Field(type: 8, data: [0])),
      (false, 0, KDB1Fixture.Field(type: 1, data: [UInt8](repeating: 1, count: 15))),
      (false, 1, KDB1Fixture.Field(type: 9, data: [1, 2, 3, 4])),
    ] {
      var broken = KDB1Fixture.sample()
      if record {
        broken.groups[index] = broken.groups[index].map { $0.type == field.type ? field : $0 }
      } else {
        broken.entries[index] = broken.entries[index].map { $0.type == field.type ? field : $0 }
      }
      #expect(Self.isMalformedRecord(Self.error(try broken.file(password: "pw"), key: CompositeKey(password: "pw"))))
    }
    var noLevel = KDB1Fixture.sample()
    noLevel.groups[2].removeAll { $0.type == 8 }
    #expect(Self.isMalformedRecord(Self.error(try noLevel.file(password: "pw"), key: CompositeKey(password: "pw"))))
  }

  /// Header counts are checked against the encrypted size before the key derivation runs, and against the
  /// records after it.
  @Test func countsAreBounded() throws {
    let key = CompositeKey(password: "pw")
    var header = try KDB1Fixture.sample().file(password: "pw")
    header.replaceSubrange(52..<56, with: KDB1Fixture.uint32(1_000_000))
    let counting = KDFCountingPrimitives()
    var random = SplitMix64(seed: 1)
    do {
      _ = try KDB1File.open(bytes: header, key: key, primitives: counting, clock: Self.clock, random: &random)
      Issue.record("a million entries in a few hundred bytes were accepted")
    } catch {
      guard case .malformedHeader(let field, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(field == "Groups/Entries")
    }
    #expect(counting.counter.derivations == 0)  // refused before the key derivation
    // Counts that fit the size but not the records: found while reading them (with the right key).
    var more = KDB1Fixture.sample()
    more.entryCountOverride = 5
    #expect(Self.isMalformedRecord(Self.error(try more.file(password: "pw"), key: key)))
    var fewer = KDB1Fixture.sample()
    fewer.groupCountOverride = 2
    #expect(Self.error(try fewer.file(password: "pw"), key: key) != nil)
  }

  /// Random changes to the records (with a matching content hash, so that they reach the record, tree and
  /// meta-stream readers): nothing traps, a right key is never taken for a wrong one or for damage, errors are
  /// malformed records, and what opens saves as KDBX and opens again.
  @Test func recordMutationsNeverTrap() throws {
    var fixture = KDB1Fixture.sample()
    fixture.rounds = 0
    var icons = KDB1Fixture.uint32(2) + KDB1Fixture.uint32(1) + KDB1Fixture.uint32(1)
    icons += KDB1Fixture.uint32(3) + [1, 2, 3] + KDB1Fixture.uint32(2) + [4, 5]
    icons += KDB1Fixture.uuid(1) + KDB1Fixture.uint32(1) + KDB1Fixture.uint32(10) + KDB1Fixture.uint32(0)
    fixture.entries += [
      KDB1Fixture.metaStream("KPX_CUSTOM_ICONS_4", data: icons, groupID: 10),
      KDB1Fixture.metaStream(
        "KPX_GROUP_TREE_STATE", data: KDB1Fixture.uint32(1) + KDB1Fixture.uint32(11) + [1], groupID: 10),
      KDB1Fixture.metaStream("Default User Name", data: Array("me".utf8) + [0], groupID: 10),
    ]
    fixture.entries[0][7] = KDB1Fixture.Field(
      type: 8, data: KDB1Fixture.text("Auto-Type: {USERNAME}\nAuto-Type-Window-1: W\nAuto-Type-1: {TAB}\nnotes"))
    let content = fixture.content
    let key = CompositeKey(password: "pw")
    let rawKey = KDB1Fixture.rawKey(password: Array("pw".utf8), keyFileKey: nil)
    var random = SplitMix64(seed: 0x4B44_4231)
    var opened = 0
    var saved = 0
    for round in 0..<2_000 {
      var mutated = content
      for _ in 0..<(1 + Int(random.next() % 4)) {
        guard !mutated.isEmpty else { break }
        let index = Int(random.next() % UInt64(mutated.count))
        switch random.next() % 4 {
        case 0: mutated[index] = UInt8(truncatingIfNeeded: random.next())
        case 1: mutated[index] ^= 1 << (random.next() % 8)
        case 2: mutated.removeSubrange(index...)
        default: mutated.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
        }
      }
      var variant = fixture
      if round % 7 == 0 { variant.groupCountOverride = UInt32(random.next() % 5) }
      if round % 11 == 0 { variant.entryCountOverride = UInt32(random.next() % 8) }
      let bytes = try variant.file(rawKey: rawKey, content: mutated)
      do {
        let result = try Self.open(bytes, key: key)
        opened += 1
        if opened % 10 == 1 {
          var generator = SplitMix64(seed: UInt64(round))
          let settings = SaveSettings(version: .v4_1, kdf: .aesKDF(AESKDFParameters(rounds: 1, seed: [])))
          let file = try KDBXFile.save(
            result.database, key: key, settings: settings, primitives: StandardPrimitives(), random: &generator)
          #expect(
            try KDBXFile.openBlocking(bytes: file, key: key).database.flatEntries.count
              == result.database.flatEntries.count)
          saved += 1
        }
      } catch {
        switch error {
        case .malformedRecord, .malformedHeader("Groups/Entries", _): break
        default: Issue.record("round \(round): \(error)")
        }
      }
    }
    #expect(opened > 50 && saved > 5, "\(opened) opened, \(saved) saved")
  }

  @Test func emptyDatabase() throws {
    let fixture = KDB1Fixture()
    let bytes = try fixture.file(password: "pw")
    #expect(bytes.count == KDB1Header.byteCount + 16)
    let opened = try Self.open(bytes, key: CompositeKey(password: "pw"))
    #expect(opened.database.root?.groups.isEmpty == true)
    #expect(Self.error(bytes, key: CompositeKey(password: "wrong")) == .invalidCredentials)
  }

  @Test func headerChecks() throws {
    let bytes = try KDB1Fixture.sample().file(password: "pw")
    let key = CompositeKey(password: "pw")
    func field(_ error: KDBXError?) -> String? {
      if case .malformedHeader(let field, _)? = error { return field }
      return nil
    }
    var arc4 = bytes
    arc4.replaceSubrange(8..<12, with: KDB1Fixture.uint32(1 | 4))
    #expect(field(Self.error(arc4, key: key)) == "Flags")
    var old = bytes
    old.replaceSubrange(12..<16, with: KDB1Fixture.uint32(0x0002_0000))
    #expect(field(Self.error(old, key: key)) == "Version")
    var rounds = bytes
    rounds.replaceSubrange(120..<124, with: KDB1Fixture.uint32(1_000_000_000))
    #expect(
      Self.error(rounds, key: key)
        == .limitExceeded(what: "AES-KDF rounds", value: 1_000_000_000, limit: LoadOptions.default.maxAESKDFRounds))
    #expect(Self.error(Array(bytes[0..<100]), key: key) == .truncated(offset: 88, needed: 32))
    #expect(Self.error(Array(bytes[0..<124]), key: key) == .truncated(offset: 124, needed: 16))
    #expect(Self.error(Array(bytes[0..<6]), key: key) == .notKeePassFile)
    // The KDBX reader names the format.
    #expect(throws: KDBXError.unsupportedKDB1) { try KDBXFile.readVersion(bytes: bytes) }
    #expect(KDB1File.isKDB1(bytes) && !KDB1File.isKDB1(Array(bytes[0..<7])))
  }

  /// KeePass 1.x's notes-based auto-type, read as KeePassXC reads it (the lines of the corpus file basic.kdb).
  @Test func autoTypeFromNotes() {
    let first = KDB1AutoType.parse(
      Array(
        """
        Auto-Type-Window-2: Window 2\r
        Auto-Type: {USERNAME}{ENTER}
        auto-type-window: a window
        Auto-Type-Window: a second window
        Auto-Type-1: {PASSWORD}{ENTER}
        Auto-Type-Window-1: Window Nr 1a
        Auto-Type-Window-1: Window Nr 1b

        last line
        """.utf8))
    #expect(first.notes == "last line")
    #expect(first.defaultSequence == "{USERNAME}{ENTER}")
    #expect(
      first.associations.map { "\($0.window)=\($0.keystrokeSequence ?? "nil")" } == [
        "a window=", "a second window=", "Window Nr 1a={PASSWORD}{ENTER}", "Window Nr 1b={PASSWORD}{ENTER}",
        "Window 2=",
      ])
    let second = KDB1AutoType.parse(
      Array(
        "start line\nAuto-Type-1: Useless\nAuto-Type-Window-1000: Test Window\nAuto-Type-Window: Main Window\nend line"
          .utf8))
    #expect(second.notes == "start line\nend line")
    #expect(second.defaultSequence == nil)
    #expect(second.associations.map { $0.window } == ["Main Window", "Test Window"])
    // Not auto-type: no value, no space, no digits after the dash, another prefix; an overflowing number.
    let plain = "Auto-Type: \nAuto-Type:x\nAuto-Type-: x\nAuto-Typed: x\nAuto-Type-99999999999999999999999: {TAB}"
    let third = KDB1AutoType.parse(Array(plain.utf8))
    #expect(third.notes == "Auto-Type: \nAuto-Type:x\nAuto-Type-: x\nAuto-Typed: x")
    #expect(third.associations.isEmpty)
  }

  @Test func windows1252() {
    // cp1252.txt (Unicode consortium): 0x80-0x9F, with the five undefined bytes as C1 controls (Windows).
    let high = "€\u{81}‚ƒ„…†‡ˆ‰Š‹Œ\u{8D}Ž\u{8F}\u{90}‘’“”•–—˜™š›œ\u{9D}žŸ"
    #expect(Windows1252.encode(utf8: Array(high.utf8)) == Array(0x80...0x9F))
    #expect(Windows1252.encode(utf8: Array("aé\u{A0}ÿ".utf8)) == [0x61, 0xE9, 0xA0, 0xFF])
    #expect(Windows1252.encode(utf8: Array("中\u{85}😀".utf8)) == [0x3F, 0x3F, 0x3F])
    #expect(Windows1252.encodeLatin1(utf8: Array("é€\u{85}".utf8)) == [0xE9, 0x3F, 0x85])
    #expect(Windows1252.encode(utf8: [0xC3]) == nil)
    #expect(Windows1252.encodeLatin1(utf8: [0xFF]) == nil)
  }

  @Test func packedTimes() {
    // KeePass 1.x's "never" as the corpus files store it.
    let never: [UInt8] = [0x2E, 0xDF, 0x39, 0x7E, 0xFB]
    #expect(KDB1Time.civil(never[...]) == KDB1Time.never)
    #expect(KDB1Time.isNever(never[...]))
    #expect(KDB1Time.pack(KDB1Time.never) == never)
    let time = CivilDateTime(year: 2012, month: 5, day: 9, hour: 22, minute: 12, second: 50)
    #expect(KDB1Time.civil(KDB1Time.pack(time)[...]) == time)
    #expect(KDB1Time.timestamp([0, 0, 0, 0, 0][...]) == nil)  // month 0: not a date
    #expect(KDB1Time.timestamp([0, 0, 0][...]) == nil)
  }
}

/// The standard primitives, counting key derivations.
struct KDFCountingPrimitives: ForwardingPrimitives {
  final class Counter: @unchecked Sendable {
    var derivations = 0
  }
  var base = StandardPrimitives()
  let counter = Counter()

  func transformKey(_ compositeKey: [UInt8], parameters: KDFParameters) throws(KDBXError) -> [UInt8] {
    counter.derivations += 1
    return try base.transformKey(compositeKey, parameters: parameters)
  }
}

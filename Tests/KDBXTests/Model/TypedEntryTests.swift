import KDBX
import Testing
import VectorSupport

@Suite struct TypedEntryTests {
  @Test func standardFieldsReadWithKeePassDefaults() {
    let bare = Entry(uuid: LibraryFixture.uuid(1))
    #expect(bare.title == "" && bare.userName == "" && bare.password == "" && bare.url == "" && bare.notes == "")
    #expect(bare.tags == [] && bare.customFields.isEmpty && bare.expiry == nil)
    #expect(bare.icon == .standard(0) && bare.icon.standardIcon == .key)
    let folder = Group(uuid: LibraryFixture.uuid(2), name: nil)
    #expect(folder.icon == .standard(48) && folder.name == "")
  }

  @Test func absentFieldsStayAbsentUntilTheirValueChanges() {
    var entry = Entry(uuid: LibraryFixture.uuid(1))
    let before = entry
    entry.title = ""
    entry.password = ""
    entry.tags = []
    entry.expiry = nil
    entry.icon = .standard(0)
    #expect(entry == before, "setting the default an absent field reads as keeps it absent")
    entry.title = "GitHub"
    #expect(entry.fields.map(\.key) == ["Title"] && entry[field: "Title"] == .plain("GitHub"))
    entry.title = ""
    #expect(entry[field: "Title"] == .plain(""), "an empty value stays distinct from an absent field")
  }

  @Test func thePasswordIsStoredProtectedAndOtherFieldsKeepTheirFlag() {
    var entry = Entry(uuid: LibraryFixture.uuid(1))
    entry.password = "hunter2"
    #expect(entry[field: "Password"]?.isProtected == true && entry.password == "hunter2")
    entry[field: "Password"] = .plain("plain")
    entry.password = "plain"
    #expect(entry[field: "Password"]?.isProtected == true, "the same text turns a plain password protected")
    var random = SplitMix64(seed: 1)
    entry[field: "Notes"] = .protected(ProtectedValue("secret note", using: &random))
    entry.notes = "changed"
    #expect(entry[field: "Notes"]?.isProtected == true && entry.notes == "changed")
  }

  @Test func customFieldsAreOrderedWithTheirProtectionFlags() {
    var entry = Entry(uuid: LibraryFixture.uuid(1))
    entry.title = "T"
    entry.setCustomField("PIN", to: "1234", protected: true)
    entry.userName = "me"
    entry.setCustomField("Account", to: "42", protected: false)
    #expect(entry.customFields.map(\.key) == ["PIN", "Account"])
    #expect(entry.customFields.map(\.value.isProtected) == [true, false])
    #expect(entry.customFields.first?.value.reveal() == "1234")
    var fields = entry.customFields
    fields.reverse()
    fields.append(EntryField(key: "Extra", value: .plain("x")))
    entry.customFields = fields
    #expect(entry.fields.map(\.key) == ["Title", "Account", "UserName", "PIN", "Extra"])
    #expect(entry.removeField("Extra") && !entry.removeField("Extra"))
    entry[field: "Raw name"] = .plain("the raw subscript stays")
    #expect(entry.customFields.last?.value.reveal() == "the raw subscript stays")
  }

  @Test func tagsSplitAndJoinAsKeePassDoes() {
    var entry = Entry(uuid: LibraryFixture.uuid(1))
    entry.tagsText = " work ,home;;x "
    #expect(entry.tags == ["work", "home", "x"])
    entry.tags = ["work", "home", "x"]
    #expect(entry.tagsText == " work ,home;;x ", "the same list keeps the stored text")
    entry.tags = ["a", "b"]
    #expect(entry.tagsText == "a;b")
  }

  @Test func iconAndExpiry() {
    var entry = Entry(uuid: LibraryFixture.uuid(1))
    entry.customIconUUID = .zero
    #expect(entry.icon == .standard(0), "an all-zero custom icon UUID means none")
    entry.icon = .custom(LibraryFixture.uuid(9))
    #expect(entry.customIconUUID == LibraryFixture.uuid(9))
    entry.icon = .standard(StandardIcon.world.rawValue)
    #expect(entry.customIconUUID == nil && entry.iconID == 1)
    let noon = Timestamp(unixSeconds: 1_700_000_000)
    entry.expiry = noon
    #expect(entry.times?.expires == true && entry.expiry == noon)
    #expect(entry.isExpired(at: noon) && !entry.isExpired(at: Timestamp(unixSeconds: 1_699_999_999)))
    entry.expiry = nil
    #expect(entry.times?.expires == false && entry.times?.expiryTime == noon && !entry.isExpired(at: noon))
  }

  /// Group name and notes are plain strings in the typed API (empty when absent), while `nameText` and `notesText`
  /// keep an absent element apart from an empty one, so that setting the value a group already shows changes
  /// nothing and a save writes back what was read.
  @Test func groupNameAndNotesAreNonOptionalAndAbsentStaysAbsent() {
    var group = Group(uuid: LibraryFixture.uuid(3), name: nil)
    let name: String = group.name
    let notes: String = group.notes
    #expect(name == "" && notes == "")
    let before = group
    group.name = ""
    group.notes = ""
    #expect(group == before && group.nameText == nil && group.notesText == nil)
    group.name = "Internet"
    group.notes = "shared"
    #expect(group.nameText == "Internet" && group.notesText == "shared" && group.name == "Internet")
    group.notes = ""
    #expect(group.notesText == "", "a value that was present and is now empty is written as empty")
  }
}

import KDBX
import Testing

@Suite struct CustomIconTests {
  static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
  static let iconUUID = KDBXUUID(bytes: [UInt8](repeating: 0xEE, count: 16)) ?? .zero

  static func database() -> Database {
    var database = LibraryFixture.make()
    database.meta.customIcons = [CustomIcon(uuid: iconUUID, data: png, name: "Logo")]
    return database
  }

  @Test func customIconBytesByUUID() {
    let database = Self.database()
    #expect(database.customIconData(for: Self.iconUUID) == Self.png)
    #expect(database.customIconData(for: .zero) == nil)
    #expect(LibraryFixture.make().customIconData(for: Self.iconUUID) == nil)
  }

  @Test func entryAndGroupIcons() {
    var entry = Entry(uuid: .zero)
    let database = Self.database()
    #expect(database.icon(for: entry) == .standard(0))
    #expect(database.icon(for: entry).sfSymbolName == "key.fill")
    entry.iconID = 19
    #expect(database.icon(for: entry).standardIcon == .email)
    #expect(database.icon(for: entry).sfSymbolName == "envelope.fill")
    entry.customIconUUID = Self.iconUUID
    #expect(database.icon(for: entry) == .custom(Self.iconUUID))
    #expect(database.icon(for: entry).sfSymbolName == "key.fill")
    // A custom icon the database does not have falls back to the standard icon.
    entry.customIconUUID = KDBXUUID(bytes: [UInt8](repeating: 1, count: 16))
    #expect(database.icon(for: entry) == .standard(19))
    var group = Group(uuid: .zero, name: "G")
    #expect(database.icon(for: group).standardIcon == .folder)
    group.iconID = 43
    #expect(database.icon(for: group).standardIcon == .trashBin)
    group.iconID = 500
    #expect(database.icon(for: group).standardIcon == nil)
    #expect(database.icon(for: group).sfSymbolName == "key.fill")
  }
}

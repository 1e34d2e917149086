import KDBX
import KDBXBase
import KDBXCrypto

/// The decrypted content of a KeePass 1.x file: `groupCount` group records, then `entryCount` entry records. A
/// record is a list of fields, each a `UInt16` type, a `UInt32` size and that many bytes, ended by a field of type
/// `0xFFFF` (KeePass 1.x `PwManager.cpp` `ReadGroupField`/`ReadEntryField`; KeePassXC `KeePass1Reader::readGroup`,
/// `readEntry`). Strings are UTF-8 ended by a NUL; times are ``KDB1Time``.
///
/// Every size is checked against the bytes left before it is read. Fields of a known type with the wrong size are
/// refused, as KeePassXC refuses them; unknown field types are skipped, as KeePass 1.x skips them.
struct KDB1Records {
  /// A group record's fields.
  struct GroupRecord {
    /// The offset of the record in the content, for error messages.
    var offset = 0
    var id: UInt32?
    var name: [UInt8] = []
    var creation: ArraySlice<UInt8>?
    var modification: ArraySlice<UInt8>?
    var access: ArraySlice<UInt8>?
    var expiry: ArraySlice<UInt8>?
    var image: UInt32?
    var level: UInt16?
    var flags: UInt32?
  }

  /// An entry record's fields.
  struct EntryRecord {
    var offset = 0
    var uuid: [UInt8]?
    var groupID: UInt32?
    var image: UInt32?
    var title: [UInt8] = []
    var url: [UInt8] = []
    var userName: [UInt8] = []
    var password: [UInt8] = []
    var notes: [UInt8] = []
    var creation: ArraySlice<UInt8>?
    var modification: ArraySlice<UInt8>?
    var access: ArraySlice<UInt8>?
    var expiry: ArraySlice<UInt8>?
    var binaryDescription: [UInt8] = []
    var binaryData: [UInt8]?
  }

  /// The smallest record: just its end field.
  static let minimumRecordByteCount = 6
  static let endFieldType: UInt16 = 0xFFFF

  var groups: [GroupRecord] = []
  var entries: [EntryRecord] = []

  /// The fewest XML nodes a group of the imported database takes in the saved document (a `Group.new`): `Group`,
  /// `UUID`, `IconID`, `IsExpanded`, `EnableAutoType`, `EnableSearching` and `LastTopVisibleEntry` with their
  /// text, `Name`, `Notes` and `DefaultAutoTypeSequence` (without text when empty), and `Times` with its 7 children
  /// and their text: 31, counted here as 28.
  static let groupNodeCost: UInt64 = 28
  /// The fewest XML nodes an entry of the imported database takes in the saved document (an `Entry.new`):
  /// `Entry`, `UUID` and `IconID` with their text, the empty colours, override URL and tags (4), `Times` (15), the 5
  /// standard `String`s (`String`, `Key` and its text, `Value`: 20), `AutoType` with `Enabled` and
  /// `DataTransferObfuscation` (5) and `History`: 50, counted here as 48.
  static let entryNodeCost: UInt64 = 48

  /// Reads `groupCount` groups and `entryCount` entries from `content`, which they must fill exactly (KeePass 1.x
  /// and KeePassX write nothing after the last record).
  ///
  /// `maxNodeCount` is the open's ``LoadOptions/maxXMLNodeCount``: the records are refused as soon as the groups
  /// and entries read so far (meta-streams aside) would take more nodes in the saved document than that, at
  /// ``groupNodeCost`` and ``entryNodeCost`` each (lower bounds), since no save of the database could be opened.
  /// So a million empty records (6 MB) are refused after about 350,000 rather than built into a database of
  /// gigabytes, and no more records are reserved than the budget allows.
  init(content: [UInt8], groupCount: UInt32, entryCount: UInt32, maxNodeCount: Int = .max) throws(KDBXError) {
    let total = UInt64(groupCount) + UInt64(entryCount)
    guard total <= UInt64(content.count / KDB1Records.minimumRecordByteCount) else {
      throw .malformedRecord(
        offset: 0,
        reason: "the header counts \(groupCount) groups and \(entryCount) entries, more than the "
          + "\(content.count) content bytes can hold")
    }
    let budget = UInt64(clamping: max(maxNodeCount, 0))
    func tooMany(groups: Int, entries: Int) -> KDBXError {
      let nodes =
        UInt64(groups).multipliedReportingOverflow(by: KDB1Records.groupNodeCost).partialValue
        &+ UInt64(entries).multipliedReportingOverflow(by: KDB1Records.entryNodeCost).partialValue
      return .limitExceeded(what: "XML node count (at least, for the records read)", value: nodes, limit: budget)
    }
    // The groups come first and all count: refused from the header's count, before any is read.
    guard UInt64(groupCount) <= budget / KDB1Records.groupNodeCost else {
      throw tooMany(groups: Int(groupCount), entries: 0)
    }
    let entryBudget = (budget - UInt64(groupCount) * KDB1Records.groupNodeCost) / KDB1Records.entryNodeCost
    groups.reserveCapacity(Int(groupCount))
    entries.reserveCapacity(Int(min(UInt64(entryCount), entryBudget)))
    var offset = 0
    for index in 0..<Int(groupCount) {
      groups.append(try KDB1Records.readGroup(content, at: &offset, index: index))
    }
    var counted: UInt64 = 0
    for index in 0..<Int(entryCount) {
      let entry = try KDB1Records.readEntry(content, at: &offset, index: index)
      if !KDB1MetaStream.isMetaStream(entry) {
        counted += 1
        guard counted <= entryBudget else { throw tooMany(groups: Int(groupCount), entries: Int(counted)) }
      }
      entries.append(entry)
    }
    // The counts are not covered by the content hash: bytes left over mean a count is wrong, and reading on would
    // drop records without a word.
    guard offset == content.count else {
      throw .malformedRecord(
        offset: offset,
        reason: "\(content.count - offset) bytes follow the last record: the header counts \(groupCount) groups and "
          + "\(entryCount) entries, fewer than the content holds")
    }
  }

  /// One field: its type, the offset of its header and its data.
  struct Field {
    var type: UInt16
    var offset: Int
    var data: ArraySlice<UInt8>
  }

  /// Reads the fields of one record up to its end field, calling `handle` for each other field.
  static func readFields(
    _ content: [UInt8], at offset: inout Int, record: String, _ handle: (Field) throws(KDBXError) -> Void
  ) throws(KDBXError) {
    while true {
      let start = offset
      guard content.count - offset >= minimumRecordByteCount else {
        throw .malformedRecord(offset: start, reason: "\(record) ends without its end field")
      }
      let type = UInt16(content[offset]) | UInt16(content[offset + 1]) << 8
      var size: UInt32 = 0
      for index in 0..<4 { size |= UInt32(content[offset + 2 + index]) << (8 * index) }
      offset += minimumRecordByteCount
      guard UInt64(size) <= UInt64(content.count - offset) else {
        throw .malformedRecord(
          offset: start, reason: "\(record) field 0x\(hex(type)) has \(size) bytes, only \(content.count - offset) left"
        )
      }
      let data = content[offset..<(offset + Int(size))]
      offset += Int(size)
      if type == endFieldType { return }
      try handle(Field(type: type, offset: start, data: data))
    }
  }

  static func readGroup(_ content: [UInt8], at offset: inout Int, index: Int) throws(KDBXError) -> GroupRecord {
    var group = GroupRecord(offset: offset)
    let record = "group \(index + 1)"
    try readFields(content, at: &offset, record: record) { field throws(KDBXError) in
      switch field.type {
      case 0x0001: group.id = try uint32(field, record: record)
      case 0x0002: group.name = text(field.data)
      case 0x0003: group.creation = try time(field, record: record)
      case 0x0004: group.modification = try time(field, record: record)
      case 0x0005: group.access = try time(field, record: record)
      case 0x0006: group.expiry = try time(field, record: record)
      case 0x0007: group.image = try uint32(field, record: record)
      case 0x0008:
        try require(field, size: 2, record: record)
        group.level = UInt16(field.data[field.data.startIndex]) | UInt16(field.data[field.data.startIndex + 1]) << 8
      case 0x0009: group.flags = try uint32(field, record: record)
      default: break  // 0x0000 is KeePass's ignored field; others are unknown, skipped as KeePass 1.x does
      }
    }
    guard group.id != nil, group.level != nil else {
      throw .malformedRecord(offset: group.offset, reason: "\(record) has no group ID or no level")
    }
    return group
  }

  static func readEntry(_ content: [UInt8], at offset: inout Int, index: Int) throws(KDBXError) -> EntryRecord {
    var entry = EntryRecord(offset: offset)
    let record = "entry \(index + 1)"
    try readFields(content, at: &offset, record: record) { field throws(KDBXError) in
      switch field.type {
      case 0x0001:
        try require(field, size: 16, record: record)
        entry.uuid = Array(field.data)
      case 0x0002: entry.groupID = try uint32(field, record: record)
      case 0x0003: entry.image = try uint32(field, record: record)
      case 0x0004: entry.title = text(field.data)
      case 0x0005: entry.url = text(field.data)
      case 0x0006: entry.userName = text(field.data)
      case 0x0007:
        SecureBytes.wipe(&entry.password)
        entry.password = text(field.data)
      case 0x0008: entry.notes = text(field.data)
      case 0x0009: entry.creation = try time(field, record: record)
      case 0x000A: entry.modification = try time(field, record: record)
      case 0x000B: entry.access = try time(field, record: record)
      case 0x000C: entry.expiry = try time(field, record: record)
      case 0x000D: entry.binaryDescription = text(field.data)
      case 0x000E: entry.binaryData = Array(field.data)
      default: break
      }
    }
    return entry
  }

  /// The bytes of a string field up to its first NUL (KeePassXC reads `QString::fromUtf8(data.constData())`).
  static func text(_ data: ArraySlice<UInt8>) -> [UInt8] {
    Array(data.prefix { $0 != 0 })
  }

  static func require(_ field: Field, size: Int, record: String) throws(KDBXError) {
    guard field.data.count == size else {
      throw .malformedRecord(
        offset: field.offset,
        reason: "\(record) field 0x\(hex(field.type)) has \(field.data.count) bytes, expected \(size)")
    }
  }

  static func uint32(_ field: Field, record: String) throws(KDBXError) -> UInt32 {
    try require(field, size: 4, record: record)
    var value: UInt32 = 0
    for (shift, byte) in field.data.enumerated() { value |= UInt32(byte) << (8 * shift) }
    return value
  }

  static func time(_ field: Field, record: String) throws(KDBXError) -> ArraySlice<UInt8> {
    try require(field, size: KDB1Time.byteCount, record: record)
    return field.data
  }

  static func hex(_ value: UInt16) -> String { Hex.encode(UInt64(value), minimumDigits: 4) }
}

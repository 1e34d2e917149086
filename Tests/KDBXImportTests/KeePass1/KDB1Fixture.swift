import KDBXCrypto

@testable import KDBX
@testable import KDBXImport

/// Builds KeePass 1.x files in the tests: records laid out as KeePass 1.x writes them (`PwManager.cpp`
/// `SaveDatabase`: group fields 1-9, entry fields 1-14, each record ended by field 0xFFFF), the content hash, AES-KDF
/// and AES-256 or Twofish CBC with PKCS#7 padding. The corpus files (written by KeePass 1.x and KeePassX) check the
/// format against real writers; these fixtures reach the cases the corpus lacks.
struct KDB1Fixture {
  struct Field {
    var type: UInt16
    var data: [UInt8]
  }

  var groups: [[Field]] = []
  var entries: [[Field]] = []
  var cipher: CipherAlgorithm = .aes256
  var rounds: UInt32 = 8
  var version: UInt32 = 0x0003_0004
  /// Counts written in the header instead of the real ones.
  var groupCountOverride: UInt32?
  var entryCountOverride: UInt32?
  var masterSeed: [UInt8] = (0..<16).map { UInt8($0) }
  var iv: [UInt8] = (0..<16).map { UInt8(0xA0 + $0) }
  var transformSeed: [UInt8] = (0..<32).map { UInt8(0x40 + $0) }

  static let created = CivilDateTime(year: 2010, month: 3, day: 4, hour: 5, minute: 6, second: 7)

  static func uint32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
  static func uint16(_ value: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: value), UInt8(value >> 8)] }
  static func text(_ value: String) -> [UInt8] { Array(value.utf8) + [0] }

  static func group(
    id: UInt32, name: String, level: UInt16, image: UInt32 = 0, flags: UInt32 = 0, time: CivilDateTime = created,
    expiry: CivilDateTime = KDB1Time.never
  ) -> [Field] {
    let time = KDB1Time.pack(time)
    return [
      Field(type: 1, data: uint32(id)), Field(type: 2, data: text(name)), Field(type: 3, data: time),
      Field(type: 4, data: time), Field(type: 5, data: time), Field(type: 6, data: KDB1Time.pack(expiry)),
      Field(type: 7, data: uint32(image)), Field(type: 8, data: uint16(level)), Field(type: 9, data: uint32(flags)),
    ]
  }

  static func entry(
    uuid: [UInt8], groupID: UInt32, title: String, userName: String = "", password: [UInt8] = [], url: String = "",
    notes: String = "", image: UInt32 = 0, expiry: CivilDateTime = KDB1Time.never, binaryName: String = "",
    binaryData: [UInt8] = []
  ) -> [Field] {
    let time = KDB1Time.pack(created)
    return [
      Field(type: 1, data: uuid), Field(type: 2, data: uint32(groupID)), Field(type: 3, data: uint32(image)),
      Field(type: 4, data: text(title)), Field(type: 5, data: text(url)), Field(type: 6, data: text(userName)),
      Field(type: 7, data: password + [0]), Field(type: 8, data: text(notes)), Field(type: 9, data: time),
      Field(type: 10, data: time), Field(type: 11, data: time), Field(type: 12, data: KDB1Time.pack(expiry)),
      Field(type: 13, data: text(binaryName)), Field(type: 14, data: binaryData),
    ]
  }

  /// A meta-stream entry as KeePass 1.x writes one (`_AddMetaStream`).
  static func metaStream(_ name: String, data: [UInt8], groupID: UInt32) -> [Field] {
    entry(
      uuid: [UInt8](repeating: 0, count: 16), groupID: groupID, title: "Meta-Info", userName: "SYSTEM", url: "$",
      notes: name, binaryName: "bin-stream", binaryData: data)
  }

  static func uuid(_ seed: UInt8) -> [UInt8] { (0..<16).map { seed &+ UInt8($0) } }

  /// The plaintext content: the records.
  var content: [UInt8] {
    var bytes: [UInt8] = []
    for record in groups + entries {
      for field in record {
        bytes += KDB1Fixture.uint16(field.type) + KDB1Fixture.uint32(UInt32(field.data.count)) + field.data
      }
      bytes += [0xFF, 0xFF, 0, 0, 0, 0]
    }
    return bytes
  }

  /// The raw key KeePass 1.x derives from the password bytes and the key file's key.
  static func rawKey(password: [UInt8]?, keyFileKey: [UInt8]?) -> [UInt8] {
    switch (password, keyFileKey) {
    case (let password?, nil): return SHA256.hash(password).bytes
    case (let password?, let key?) where !password.isEmpty: return SHA256.hash(SHA256.hash(password).bytes + key).bytes
    case (_, let key?): return key
    default: return []
    }
  }

  /// The file for the raw key `rawKey`, with `content` (default: the records) encrypted.
  func file(rawKey: [UInt8], content override: [UInt8]? = nil) throws -> [UInt8] {
    let plain = override ?? content
    let transformed = try AESKDF.transform(key: rawKey, seed: transformSeed, rounds: UInt64(rounds))
    let key = SHA256.hash(masterSeed + transformed).bytes
    let ciphertext =
      cipher == .twofish
      ? try CBC<Twofish>.encrypt(plain, key: key, iv: iv) : try CBC<AES>.encrypt(plain, key: key, iv: iv)
    var header: [UInt8] = KDB1Fixture.uint32(0x9AA2_D903) + KDB1Fixture.uint32(0xB54B_FB65)
    header += KDB1Fixture.uint32(cipher == .twofish ? 1 | 8 : 1 | 2) + KDB1Fixture.uint32(version)
    header += masterSeed + iv
    header += KDB1Fixture.uint32(groupCountOverride ?? UInt32(groups.count))
    header += KDB1Fixture.uint32(entryCountOverride ?? UInt32(entries.count))
    header += SHA256.hash(plain).bytes + transformSeed + KDB1Fixture.uint32(rounds)
    return header + ciphertext
  }

  func file(password: String) throws -> [UInt8] {
    try file(rawKey: KDB1Fixture.rawKey(password: Array(password.utf8), keyFileKey: nil))
  }

  /// A small tree: General (expanded) > Sub; Backup; one entry in each, and one with an attachment.
  static func sample() -> KDB1Fixture {
    var fixture = KDB1Fixture()
    fixture.groups = [
      group(id: 10, name: "General", level: 0, image: 48, flags: 1),
      group(id: 11, name: "Sub", level: 1, image: 38),
      group(id: 12, name: "Backup", level: 0, image: 4),
    ]
    fixture.entries = [
      entry(
        uuid: uuid(1), groupID: 10, title: "Mail", userName: "me", password: Array("s3cret".utf8),
        url: "https://mail.example", notes: "line 1\r\nline 2", image: 19,
        expiry: CivilDateTime(year: 2030, month: 1, day: 2, hour: 3, minute: 4, second: 5)),
      entry(
        uuid: uuid(2), groupID: 11, title: "Doc", binaryName: "note.txt", binaryData: Array("hello\n".utf8)),
      entry(uuid: uuid(3), groupID: 12, title: "Old"),
    ]
    return fixture
  }
}

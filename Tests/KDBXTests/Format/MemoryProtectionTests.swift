import Foundation
import KDBX
import Testing
import VectorSupport

/// `Meta/MemoryProtection` is applied on save: a standard field it protects is written `Protected="True"` whatever
/// the model holds (KeePass `KdbxFile.WriteEntry` asks `MemoryProtection` for each standard field).
@Suite struct MemoryProtectionTests {
  static let aes = KDFParameters.aesKDF(AESKDFParameters(rounds: 1_000, seed: [UInt8](repeating: 0, count: 32)))

  /// A vault whose entry holds every value plain, and a custom field protected.
  static func vault(protectURL: Bool = false) -> Database {
    var random = SplitMix64(seed: 21)
    var database = Database.new(name: "Vault", clock: LibraryFixture.clock, random: &random)
    if protectURL { database.meta.memoryProtection?.protectURL = true }
    var entry = Entry.new(clock: LibraryFixture.clock, random: &random)
    entry.title = "Site"
    entry[field: Entry.passwordField] = .plain("hunter2")
    entry.url = "https://example.com"
    entry.setCustomField("PIN", to: "1234", protected: true)
    entry.setCustomField("Plain", to: "shown", protected: false)
    database.root?.entries.append(entry)
    return database
  }

  static func save(_ database: Database, version: KDBXVersion = .v4_0) throws -> [UInt8] {
    try KDBXFile.saveBlocking(
      database, key: CompositeKey(password: "pw"), settings: SaveSettings(version: version, kdf: aes))
  }

  @Test(arguments: [KDBXVersion.v3_1, .v4_0])
  func aPlainPasswordIsWrittenProtected(_ version: KDBXVersion) throws {
    let bytes = try Self.save(Self.vault(), version: version)
    let entry = try #require(
      KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "pw")).database.root?.entries.first)
    #expect(entry[field: "Password"]?.isProtected == true)
    #expect(entry.password == "hunter2")
    #expect(entry[field: "URL"]?.isProtected == false)
    #expect(entry[field: "PIN"]?.isProtected == true, "a custom field keeps its own flag")
    #expect(entry[field: "Plain"]?.isProtected == false)
  }

  @Test func theSettingsNameTheFields() throws {
    var database = Self.vault(protectURL: true)
    database.meta.memoryProtection?.protectPassword = false
    #expect(database.meta.protectedFieldKeys == ["URL"])
    database.meta.memoryProtection = nil
    #expect(database.meta.protectedFieldKeys == ["Password"], "KeePass's default when the element is absent")
    let bytes = try Self.save(Self.vault(protectURL: true))
    let entry = try #require(
      KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "pw")).database.root?.entries.first)
    #expect(entry[field: "URL"]?.isProtected == true && entry.url == "https://example.com")
  }

  @Test(.enabled(if: WriteInteropTests.pykeepassAvailable))
  func pykeepassSeesProtectedTrue() throws {
    let path = NSTemporaryDirectory() + "swift-kdbx-protection-\(UUID().uuidString).kdbx"
    defer { try? FileManager.default.removeItem(atPath: path) }
    var database = Self.vault()
    var random = SplitMix64(seed: 5)
    var typed = Entry.new(clock: LibraryFixture.clock, random: &random)
    typed.title = "Typed"
    typed.password = "set through the typed API"
    database.root?.entries.append(typed)
    try Data(try Self.save(database)).write(to: URL(fileURLWithPath: path))
    let script = """
      import sys
      from pykeepass import PyKeePass
      kp = PyKeePass(sys.argv[1], password='pw')
      for e in sorted(kp.entries, key=lambda e: e.title):
          for key in ('Password', 'URL', 'PIN', 'Plain'):
              value = e._element.find('String[Key="%s"]/Value' % key)
              if value is not None:
                  print(e.title, key, value.attrib.get('Protected', '-'))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(WriteInteropTests.python))
    process.arguments = ["python3", "-c", script, path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "Site Password True", "Site URL -", "Site PIN True", "Site Plain -", "Typed Password True", "Typed URL -",
      ])
  }
}

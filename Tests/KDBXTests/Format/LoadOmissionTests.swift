import KDBX
import Testing
import VectorSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `LoadOptions.loadsAttachmentContents` and `loadsHistory` off: an AutoFill extension's open keeps neither, and a
/// save of what was opened that way is refused.
@Suite struct LoadOmissionTests {
  @Test(arguments: [KDBXVersion.v3_1, .v4_0])
  func anExtensionOpensWithoutAttachmentsAndHistory(_ version: KDBXVersion) throws {
    var random = SplitMix64(seed: 78)
    var database = Database.new(name: "V", clock: LibraryFixture.clock, random: &random)
    var entry = Entry.new(clock: LibraryFixture.clock, random: &random)
    entry.title = "GitHub"
    entry.password = "first"
    database.root?.entries.append(entry)
    database.editEntry(entry.uuid, clock: LibraryFixture.later) { entry, pool in
      entry.password = "second"
      entry.setCustomField("PIN", to: "1234", protected: true)
      entry.attach("codes.txt", data: Array("recovery codes".utf8), in: &pool)
    }
    let key = CompositeKey(password: "pw")
    let kdf = KDFParameters.aesKDF(AESKDFParameters(rounds: 100, seed: [UInt8](repeating: 0, count: 32)))
    let bytes = try KDBXFile.saveBlocking(database, key: key, settings: SaveSettings(version: version, kdf: kdf))

    var options = LoadOptions()
    options.loadsAttachmentContents = false
    options.loadsHistory = false
    let light = try KDBXFile.openBlocking(bytes: bytes, key: key, options: options)
    let read = try #require(light.database.entry(withUUID: entry.uuid))
    #expect(read.history == nil && read.attachments.map(\.name) == ["codes.txt"])
    #expect(read.password == "second" && read[field: "PIN"]?.reveal() == "1234", "the stream stays in step")
    let binary = try #require(light.database.binaries[read.attachments[0].binaryIndex])
    #expect(binary.data.isEmpty && binary.omitted?.byteCount == 14 && binary.omitted?.sha256.count == 32)
    #expect(light.database.omittedOnLoad == [.attachmentContents, .history])
    #expect(throws: KDBXError.incompleteDatabase(reason: "its attachment contents and its entry histories")) {
      try KDBXFile.saveBlocking(light.database, key: key, settings: SaveSettings(keeping: light))
    }
    let full = try KDBXFile.openBlocking(bytes: bytes, key: key)
    #expect(full.database.omittedOnLoad.isEmpty && full.database.entry(withUUID: entry.uuid)?.history?.count == 1)
  }

  /// Prints the peak resident memory of opening `large_5000.kdbx` in this process, for the README figures. Run one
  /// mode per process: `KDBX_RSS_PROBE=full|light|none swift test --skip-build --filter peakMemoryProbe`.
  @Test(.enabled(if: getenv("KDBX_RSS_PROBE") != nil))
  func peakMemoryProbe() throws {
    let mode = String(cString: getenv("KDBX_RSS_PROBE"))
    guard let bytes = Corpus.file("generated/large_5000.kdbx") else {
      print("SKIP: ../shared/corpus/generated/large_5000.kdbx is missing")
      return
    }
    var options = LoadOptions()
    if mode == "light" {
      options.loadsAttachmentContents = false
      options.loadsHistory = false
    }
    // Linux: writing 5 to clear_refs resets the peak (VmHWM) to the current resident size, so that the figure is
    // the open's own peak above what the test process already holds.
    if let file = fopen("/proc/self/clear_refs", "w") {
      fputs("5", file)
      fclose(file)
    }
    let before = Self.statusKiB("VmRSS:")
    var count = 0
    if mode != "none" {
      count = try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "bench"), options: options).database
        .flatEntries.count
    }
    let peak = Self.statusKiB("VmHWM:")
    print(
      "RSS-PROBE mode=\(mode) entries=\(count) resident before=\(before / 1024) MiB peak=\(peak / 1024) MiB "
        + "open's peak above before=\((peak - before) / 1024) MiB")
  }

  /// A `kB` line of /proc/self/status (0 where there is none).
  static func statusKiB(_ label: String) -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
      let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if text.hasPrefix(label) { return Int(text.dropFirst(label.count).filter { $0.isNumber }) ?? 0 }
    }
    return 0
  }
}

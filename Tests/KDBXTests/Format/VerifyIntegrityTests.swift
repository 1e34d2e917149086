import KDBX
import Testing
import VectorSupport

/// `KDBXFile.verifyIntegrity`, the read-back check of a save: it accepts what `open` accepts and refuses what
/// `open` refuses, without building the database, and with the transformed key that `write` returns.
@Suite("Verify integrity")
struct VerifyIntegrityTests {
  static let fixtures = [
    "kdbx31-aes256-aeskdf", "kdbx40-chacha20-aeskdf", "kdbx41-twofish-aeskdf", "kdbx2-binary-pool",
  ]
  .map { Fixture(name: $0) }

  @Test(arguments: fixtures)
  func acceptsIntactFiles(_ fixture: Fixture) throws {
    let bytes = try #require(fixture.bytes)
    let key = try fixture.key()
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: key)
    let report = try KDBXFile.verifyIntegrity(bytes: bytes, key: key, primitives: StandardPrimitives())
    #expect(report.version == opened.header.version)
    #expect(report.elementCount > 20)
    #expect(report.checkedHeaderHash == (opened.database.meta.headerHash != nil))
    #expect(throws: KDBXError.invalidCredentials) {
      try KDBXFile.verifyIntegrity(bytes: bytes, key: CompositeKey(password: "wrong"), primitives: StandardPrimitives())
    }
  }

  @Test(arguments: fixtures)
  func writeReturnsTheKeyTheFileOpensWith(_ fixture: Fixture) throws {
    let bytes = try #require(fixture.bytes)
    let key = try fixture.key()
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: key)
    var random = SplitMix64(seed: 12)
    let saved = try KDBXFile.write(
      opened.database, key: key, settings: SaveSettings(keeping: opened), primitives: StandardPrimitives(),
      random: &random)
    let cached = CompositeKey(transformedSecret: saved.transformedKey)
    _ = try KDBXFile.verifyIntegrity(bytes: saved.bytes, key: cached, primitives: StandardPrimitives())
    let reopened = try KDBXFile.openBlocking(bytes: saved.bytes, key: cached)
    #expect(reopened.database.root?.entries.count == opened.database.root?.entries.count)
    // The KDF of the new file gives the same key from the composite key.
    #expect(
      try KDBXFile.openBlocking(bytes: saved.bytes, key: key).transformedKey.hasSameBytes(as: saved.transformedKey))
  }

  /// Every damaged variant that `open` refuses, `verifyIntegrity` refuses too, with the same error.
  @Test(arguments: fixtures)
  func refusesWhatOpenRefuses(_ fixture: Fixture) throws {
    let bytes = try #require(fixture.bytes)
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: try fixture.key())
    let key = CompositeKey(transformedSecret: opened.transformedKey)
    var random = SplitMix64(seed: 99)
    for _ in 0..<60 {
      var damaged = bytes
      let position = Int(random.next() % UInt64(bytes.count))
      damaged[position] ^= UInt8(1 << (random.next() % 8))
      var openError: KDBXError? = nil
      do { _ = try KDBXFile.openBlocking(bytes: damaged, key: key) } catch { openError = error }
      var verifyError: KDBXError? = nil
      do {
        _ = try KDBXFile.verifyIntegrity(bytes: damaged, key: key, primitives: StandardPrimitives())
      } catch {
        verifyError = error
      }
      #expect(verifyError == openError, "flip at \(position)")
    }
  }
}

import KDBX
import Testing
import VectorSupport

/// What other readers and writers expect of the files we write, beyond the format itself.
@Suite("Peer compatibility of what we write")
struct PeerCompatibilityTests {
  /// KeePass 2 writes `Meta/Binaries` in every KDBX 3.x file, empty too (`KdbxFile.WriteBinPool`); pykeepass 4.2
  /// cannot add an attachment to a 3.1 file without it (`add_binary` appends to the element). Issue #18.
  @Test(arguments: [KDBXVersion.v3_1, .v4_0])
  func emptyBinariesElementInKDBX3(_ version: KDBXVersion) throws {
    var random = SplitMix64(seed: 3)
    let database = Database.new(name: "no attachments", clock: FixedClock(Timestamp(unixSeconds: 0)), random: &random)
    var stream = PlaintextInnerStream()
    let xml = String(
      decoding: try DatabaseXML.serialize(database, version: version, stream: &stream), as: UTF8.self)
    let hasBinaries = xml.contains("<Binaries")
    #expect(hasBinaries == !version.isKDBX4, "\(xml.prefix(600))")
  }
}

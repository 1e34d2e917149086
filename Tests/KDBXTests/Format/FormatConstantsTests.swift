import KDBX
import Testing

/// The UUIDs as the KDBX 4.1 specification and KeePassXC's KeePass2.h list them.
@Suite struct FormatConstantsTests {
  @Test func cipherAndKDFUUIDs() {
    #expect(CipherAlgorithm.aes256.uuid.description == "31c1f2e6-bf71-4350-be58-05216afc5aff")
    #expect(CipherAlgorithm.chaCha20.uuid.description == "d6038a2b-8b6f-4cb5-a524-339a31dbb59a")
    #expect(CipherAlgorithm.twofish.uuid.description == "ad68f29f-576f-4bb9-a36a-d47af965346c")
    #expect(KDFAlgorithm.aesKDBX3.uuid.description == "c9d9f39a-628a-4460-bf74-0d08c18a4fea")
    #expect(KDFAlgorithm.aesKDBX4.uuid.description == "7c02bb82-79a7-4ac0-927d-114a00648238")
    #expect(KDFAlgorithm.argon2d.uuid.description == "ef636ddf-8c29-444b-91f7-a9a403e30a0c")
    #expect(KDFAlgorithm.argon2id.uuid.description == "9e298b19-56db-4773-b23d-fc3ec6f0a1e6")
    #expect(KDBXUUID(string: "D6038A2B8B6F4CB5A524339A31DBB59A").flatMap { CipherAlgorithm(uuid: $0) } == .chaCha20)
  }

  @Test func wireNumbers() {
    #expect(FormatConstants.signature1 == 0x9AA2_D903)
    #expect(FormatConstants.signature2KDBX == 0xB54B_FB67)
    #expect(OuterHeaderFieldID.kdfParameters.rawValue == 11)
    #expect(OuterHeaderFieldID.publicCustomData.rawValue == 12)
    #expect(InnerHeaderFieldID.binary.rawValue == 3)
    #expect(InnerRandomStreamAlgorithm.salsa20.rawValue == 2)
    #expect(InnerRandomStreamAlgorithm.chaCha20.rawValue == 3)
    #expect(CompressionAlgorithm.gzip.rawValue == 1)
    #expect(CipherAlgorithm.chaCha20.ivByteCount == 12)
    #expect(CipherAlgorithm.twofish.ivByteCount == 16)
  }

  @Test func uuidForms() throws {
    let uuid = try #require(KDBXUUID(string: "31c1f2e6-bf71-4350-be58-05216afc5aff"))
    #expect(uuid.base64 == "McHy5r9xQ1C+WAUhavxa/w==")
    #expect(KDBXUUID(base64: "McHy5r9xQ1C+WAUhavxa/w==") == uuid)
    #expect(KDBXUUID(base64: "AAAA") == nil)
    #expect(KDBXUUID(string: "31c1f2e6bf71-4350-be58-05216afc5aff") == nil)
    #expect(KDBXUUID.zero.isZero)
  }
}

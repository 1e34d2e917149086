import KDBXBase
import KDBXXML
import Testing
import VectorSupport

@testable import KDBX

@Suite struct KeyFileTests {
  static func xmlKeyFile(version: String, data: String, hash: String? = nil) -> XMLElement {
    XMLElement(
      name: "KeyFile",
      children: [
        .text("\n\t"),
        .element(
          XMLElement(name: "Meta", children: [.element(XMLElement(name: "Version", children: [.text(version)]))])),
        .element(
          XMLElement(
            name: "Key",
            children: [
              .element(
                XMLElement(
                  name: "Data", attributes: hash.map { [XMLAttribute(name: "Hash", value: $0)] } ?? [],
                  children: [.text(data)]))
            ])),
      ])
  }

  @Test func xmlVersion1FromTree() throws {
    // keepassxc/FileKeyXml.key content; its key is the base64 decoding.
    let file = try KeyFile(
      xmlDocument: Self.xmlKeyFile(version: "1.00", data: "nhNal+U9p6h1rWAAJ5YrNkMazMTZkIWLi3WC4JQv5jk="))
    #expect(file.format == .xmlVersion1)
    #expect(Hex.encode(file.keyBytes) == "9e135a97e53da7a875ad600027962b36431accc4d990858b8b7582e0942fe639")
    #expect(throws: KDBXError.invalidKeyFile(reason: "Key/Data is not valid base64")) {
      try KeyFile(xmlDocument: Self.xmlKeyFile(version: "1.0", data: "yy"))
    }
    #expect(throws: KDBXError.invalidKeyFile(reason: "unsupported key file version 3.00")) {
      try KeyFile(xmlDocument: Self.xmlKeyFile(version: "3.00", data: "AAAA"))
    }
  }

  @Test func xmlVersion2FromTreeChecksHash() throws {
    let data = "\n\t\t\tA7007945 D07D54BA 28DF6434 1B4500FC\n\t\t\t9750DFB1 D36ADA2D 9C32DC19 4C7AB01B\n\t\t"
    let file = try KeyFile(xmlDocument: Self.xmlKeyFile(version: "2.0", data: data, hash: "FE2949B8"))
    #expect(file.format == .xmlVersion2)
    #expect(Hex.encode(file.keyBytes) == "a7007945d07d54ba28df64341b4500fc9750dfb1d36ada2d9c32dc194c7ab01b")
    #expect(throws: KDBXError.invalidKeyFile(reason: "Hash attribute does not match Key/Data")) {
      try KeyFile(xmlDocument: Self.xmlKeyFile(version: "2.0", data: data, hash: "FE2949B9"))
    }
    #expect(throws: KDBXError.invalidKeyFile(reason: "Key/Data is not valid hex")) {
      try KeyFile(xmlDocument: Self.xmlKeyFile(version: "2.0", data: "A700794", hash: "FE2949B8"))
    }
    let generated = try KeyFile(xmlDocument: file.xmlVersion2Document())
    #expect(generated == file)
  }

  @Test func plainForms() throws {
    let raw = [UInt8](0..<32)
    #expect(try KeyFile(contents: raw).format == .binary32)
    #expect(try KeyFile(contents: raw).keyBytes == raw)
    let hex = Array(Hex.encode(raw).uppercased().utf8)
    #expect(try KeyFile(contents: hex).format == .hex64)
    #expect(try KeyFile(contents: hex).keyBytes == raw)
    var notHex = hex
    notHex[0] = 0x47
    #expect(try KeyFile(contents: notHex).keyBytes == SHA256Helper.hash(notHex))
    #expect(try KeyFile(contents: []).keyBytes == SHA256Helper.hash([]))
    #expect("\(try KeyFile(contents: raw))" == "KeyFile(<redacted>)")
  }

  /// Reads a corpus key file.
  static func load(_ contents: [UInt8]) throws(KDBXError) -> KeyFile {
    try KeyFile(contents: contents)
  }

  @Test(
    .enabled(if: Corpus.isAvailable),
    arguments: Vectors.records("kdbx/corpus-keyfiles.vec").filter { $0.has("file") })
  func corpusKeyFiles(_ record: VectorRecord) throws {
    let contents = try #require(Corpus.file(record.string("file")))
    if record.has("key") {
      let file = try Self.load(contents)
      #expect(file.keyBytes == record.bytes("key"))
      #expect("\(file.format)" == record.string("format"))
    } else {
      #expect(throws: KDBXError.self) { try Self.load(contents) }
    }
  }

  @Test(
    .enabled(if: Corpus.isAvailable),
    arguments: Vectors.records("kdbx/corpus-keyfiles.vec").filter { $0.has("composite4") })
  func corpusCompositeKeys(_ record: VectorRecord) throws {
    var keyFile: KeyFile?
    if record.has("keyfile") {
      let contents = try #require(Corpus.file(record.string("keyfile")))
      keyFile = try Self.load(contents)
    }
    let password: String? = record.has("password") ? record.string("password") : nil
    let response: [UInt8]? = record.has("response") ? record.bytes("response") : nil
    let key = CompositeKey(password: password, keyFile: keyFile, challengeResponse: response)
    #expect(key.compositeKey(for: .v4_0) == record.bytes("composite4"))
  }

  @Test(.enabled(if: Corpus.isAvailable)) func challengeIsTheKDFSeedForKDBX4() throws {
    // keepass-rs/test_db_with_challenge_response_key.kdbx.expected.json gives the challenge its writer used.
    let bytes = try #require(Corpus.file("keepass-rs/test_db_with_challenge_response_key.kdbx"))
    let header = try KDBXFile.readHeader(bytes: bytes).header
    #expect(Hex.encode(header.challenge) == "22790799f65883d95602d10c6e6ca0f031e081aab7df4c2cf7938561344fd86e")
  }

  @Test func compositeKeyRules() throws {
    let none = CompositeKey(password: nil)
    let empty = CompositeKey(password: "")
    #expect(none.isEmpty && !empty.isEmpty)
    #expect(none.compositeKey(for: .v4_0) == SHA256Helper.hash([]))
    #expect(empty.compositeKey(for: .v4_0) == SHA256Helper.hash(SHA256Helper.hash([])))
    #expect(none.compositeKey(for: .v4_0) != empty.compositeKey(for: .v4_0))
    // KDBX 3: the response is not in the composite key but in the master key.
    let withResponse = CompositeKey(password: "pw", challengeResponse: [1, 2])
    #expect(withResponse.compositeKey(for: .v3_1) == CompositeKey(password: "pw").compositeKey(for: .v3_1))
    let seed = [UInt8](repeating: 1, count: 32)
    let transformed = [UInt8](repeating: 2, count: 32)
    #expect(
      withResponse.kdbx3MasterKey(masterSeed: seed, transformedKey: transformed)
        == SHA256Helper.hash(seed + SHA256Helper.hash([1, 2]) + transformed))
    #expect(
      CompositeKey.kdbx4CipherKey(masterSeed: seed, transformedKey: transformed)
        == SHA256Helper.hash(seed + transformed))
    let cached = try CompositeKey(transformedKey: transformed)
    #expect(cached.isTransformed && cached.transformedKey == transformed && cached.compositeKey(for: .v4_0) == nil)
    #expect(throws: KDBXError.self) { try CompositeKey(transformedKey: [1]) }
    #expect("\(CompositeKey(password: "secret"))" == "CompositeKey(<redacted>)")
  }
}

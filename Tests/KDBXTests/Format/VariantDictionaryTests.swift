import Testing

@testable import KDBX

@Suite struct VariantDictionaryTests {
  /// Hand-assembled from the KDBX 4.1 specification ("VariantDictionary"): version 0x0100, one item of each type,
  /// terminator 0x00.
  static let wire: [UInt8] =
    [0x00, 0x01]
    + [0x04, 1, 0, 0, 0, 0x50, 4, 0, 0, 0, 0x02, 0, 0, 0]  // "P" UInt32 2
    + [0x05, 1, 0, 0, 0, 0x4D, 8, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]  // "M" UInt64 16 MiB
    + [0x08, 1, 0, 0, 0, 0x62, 1, 0, 0, 0, 0x01]  // "b" true
    + [0x0C, 1, 0, 0, 0, 0x69, 4, 0, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF]  // "i" Int32 -2
    + [0x0D, 1, 0, 0, 0, 0x6C, 8, 0, 0, 0, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]  // "l" Int64 -3
    + [0x18, 1, 0, 0, 0, 0x73, 2, 0, 0, 0, 0xC3, 0xA9]  // "s" "é"
    + [0x42, 1, 0, 0, 0, 0x53, 3, 0, 0, 0, 1, 2, 3]  // "S" bytes
    + [0x00]

  @Test func parsesEveryTypeAndKeepsOrder() throws {
    let dictionary = try VariantDictionary(parsing: Self.wire)
    #expect(dictionary.items.map(\.key) == ["P", "M", "b", "i", "l", "s", "S"])
    #expect(dictionary["P"] == .uint32(2))
    #expect(dictionary["M"] == .uint64(16 << 20))
    #expect(dictionary["b"] == .bool(true))
    #expect(dictionary["i"] == .int32(-2))
    #expect(dictionary["l"] == .int64(-3))
    #expect(dictionary["s"] == .string("é"))
    #expect(dictionary["S"] == .byteArray([1, 2, 3]))
    #expect(dictionary.serialized() == Self.wire)
  }

  @Test func everyTruncationThrowsWithoutTrapping() {
    for length in 0..<Self.wire.count {
      #expect(throws: KDBXError.self) { try VariantDictionary(parsing: Array(Self.wire[0..<length])) }
    }
  }

  @Test func rejectsMalformedItems() {
    var badVersion = Self.wire
    badVersion[1] = 0x02
    #expect(throws: KDBXError.malformedVariantDictionary(offset: 0, reason: "unsupported version 512")) {
      try VariantDictionary(parsing: badVersion)
    }
    var badType = Self.wire
    badType[2] = 0x07
    #expect(throws: KDBXError.self) { try VariantDictionary(parsing: badType) }
    var badSize = Self.wire
    badSize[8] = 3  // UInt32 value declared 3 bytes
    #expect(throws: KDBXError.self) { try VariantDictionary(parsing: badSize) }
    var hugeLength = Self.wire
    hugeLength[6...9] = [0xFF, 0xFF, 0xFF, 0x7F]
    #expect(throws: KDBXError.self) { try VariantDictionary(parsing: hugeLength) }
    #expect(throws: KDBXError.self) { try VariantDictionary(parsing: Self.wire + [0]) }
  }

  @Test func kdfParametersRoundTripAndLimits() throws {
    let argon = KDFParameters.argon2(
      Argon2KDFParameters(
        variant: .id, iterations: 2, memoryBytes: 64 << 20, parallelism: 2, salt: [UInt8](repeating: 7, count: 32)))
    let dictionary = argon.dictionary
    #expect(dictionary.items.map(\.key) == ["$UUID", "S", "P", "M", "I", "V"])
    #expect(dictionary["$UUID"] == .byteArray(KnownUUIDs.argon2id.bytes))
    #expect(try KDFParameters(dictionary: try VariantDictionary(parsing: dictionary.serialized())) == argon)
    #expect(throws: KDBXError.limitExceeded(what: "Argon2 memory bytes", value: 64 << 20, limit: 1 << 20)) {
      try KDFParameters(dictionary: dictionary, options: LoadOptions(maxKDFMemoryBytes: 1 << 20))
    }
    var unknown = dictionary
    unknown["$UUID"] = .byteArray([UInt8](repeating: 1, count: 16))
    #expect(throws: KDBXError.unsupportedKDF(uuid: "01010101-0101-0101-0101-010101010101")) {
      try KDFParameters(dictionary: unknown)
    }
    let aes = KDFParameters.aesKDF(AESKDFParameters(rounds: 60_000, seed: [UInt8](repeating: 1, count: 32)))
    #expect(try KDFParameters(dictionary: aes.dictionary) == aes)
    // Issue #18: KeePassXC's alias UUID is read, and written back as KeePass 2's, which every reader knows.
    var alias = aes.dictionary
    alias["$UUID"] = .byteArray(KnownUUIDs.aesKDFKDBX4.bytes)
    let read = try KDFParameters(dictionary: alias)
    #expect(read.algorithm == .aesKDBX4)
    #expect(read.dictionary["$UUID"] == .byteArray(KnownUUIDs.aesKDFKDBX3.bytes))
    #expect(read.dictionary.serialized() == aes.dictionary.serialized())
    var shortSeed = aes.dictionary
    shortSeed["S"] = .byteArray([1])
    #expect(throws: KDBXError.self) { try KDFParameters(dictionary: shortSeed) }
  }
}

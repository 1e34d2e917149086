import KDBXCrypto
import Testing

@testable import KDBX

/// The key material of `CompositeKey` and the key schedule lives in `SecureBytes` (zeroed on release), and the
/// `SecureBytes` forms of the key schedule give the same keys as the `[UInt8]` forms.
@Suite struct KeyMemoryTests {
  static func hex(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let high = iterator.next(), let low = iterator.next() {
      func nibble(_ c: UInt8) -> UInt8 { c <= 0x39 ? c - 0x30 : c - 0x57 }
      out.append(nibble(high) << 4 | nibble(low))
    }
    return out
  }

  @Test func passwordComponentIsHeldInSecureBytes() throws {
    let key = CompositeKey(password: "fixture")
    guard case .components(let components, let response) = key.storage else {
      Issue.record("a password key has components")
      return
    }
    #expect(response == nil)
    #expect(components.count == 1)
    // SHA-256("fixture"), from Python's hashlib.
    #expect(components.first?.bytes == Self.hex("f16d05ec6b29248d2c61adb1e9263f78e4f7bace1b955014a2d17872cfe4064d"))
  }

  @Test func transformedKeyIsHeldInSecureBytesAndNotCopiedByTheSchedule() throws {
    let raw = [UInt8](repeating: 0x42, count: 32)
    let key = try CompositeKey(transformedKey: raw)
    let secret = try #require(key.transformedSecret)
    #expect(secret.bytes == raw)
    #expect(key.transformedKey == raw)
    let header = OuterHeader(
      version: .v4_1, cipher: .aes256, compression: .gzip, masterSeed: [UInt8](repeating: 1, count: 32),
      encryptionIV: [UInt8](repeating: 2, count: 16),
      kdf: .aesKDF(AESKDFParameters(rounds: 1, seed: [UInt8](repeating: 3, count: 32))))
    let scheduled = try KDBXFile.transformedKey(key, header: header, primitives: StandardPrimitives())
    #expect(scheduled === secret)
  }

  @Test func secureKeyScheduleMatchesArrayForm() throws {
    let seed = (0..<32).map { UInt8($0) }
    let transformed = (0..<32).map { UInt8(255 - $0) }
    let secret = SecureBytes(transformed)
    let key = CompositeKey(password: "pw", challengeResponse: [1, 2, 3])
    #expect(
      key.kdbx3MasterKey(masterSeed: seed, transformedKey: secret)
        == key.kdbx3MasterKey(
          masterSeed: seed, transformedKey: transformed))
    #expect(
      CompositeKey.kdbx4CipherKey(masterSeed: seed, transformedKey: secret)
        == CompositeKey.kdbx4CipherKey(
          masterSeed: seed, transformedKey: transformed))
    #expect(
      CompositeKey.kdbx4HMACBaseKeyInput(masterSeed: seed, transformedKey: secret) == seed + transformed + [0x01])
  }

  @Test func derivedKeyFromTheKDFIsHeldInSecureBytes() throws {
    let header = OuterHeader(
      version: .v3_1, cipher: .aes256, compression: .gzip, masterSeed: [UInt8](repeating: 1, count: 32),
      encryptionIV: [UInt8](repeating: 2, count: 16),
      kdf: .aesKDF(AESKDFParameters(rounds: 10, seed: [UInt8](repeating: 3, count: 32))))
    let key = CompositeKey(password: "fixture")
    let transformed = try KDBXFile.transformedKey(key, header: header, primitives: StandardPrimitives())
    #expect(transformed.count == 32)
    let composite = try #require(key.compositeKey(for: .v3_1))
    let expected = try StandardPrimitives().transformKey(
      composite, parameters: .aesKDF(AESKDFParameters(rounds: 10, seed: [UInt8](repeating: 3, count: 32))))
    #expect(transformed.bytes == expected)
  }
}

import KDBXBase
import KDBXCrypto
import Testing
import VectorSupport

@Suite("Ed25519")
struct Ed25519Tests {
  static func check(_ record: VectorRecord) throws {
    let key = try Ed25519.PrivateKey(rawRepresentation: record.bytes("seed"))
    #expect(key.publicKey.rawRepresentation == record.bytes("pk"))
    let message = record.bytes("msg")
    let signature = key.signature(for: message)
    #expect(signature == record.bytes("sig"))
    let publicKey = try Ed25519.PublicKey(rawRepresentation: record.bytes("pk"))
    #expect(publicKey.isValidSignature(record.bytes("sig"), for: message))
    var tampered = signature
    tampered[(message.count * 7) % 64] ^= 0x01
    #expect(!publicKey.isValidSignature(tampered, for: message))
    #expect(!publicKey.isValidSignature(signature, for: message + [0]))
  }

  @Test("RFC 8032 §7.1", arguments: Vectors.records("ed25519/rfc8032-7.1.vec"))
  func rfc8032(_ record: VectorRecord) throws { try Self.check(record) }

  @Test("SUPERCOP sign.input (first 128)", arguments: Vectors.records("ed25519/supercop-sign-input.vec"))
  func supercop(_ record: VectorRecord) throws { try Self.check(record) }

  @Test("invalid signatures and keys", arguments: Vectors.records("ed25519/negative.vec"))
  func negative(_ record: VectorRecord) {
    guard let key = try? Ed25519.PublicKey(rawRepresentation: record.bytes("pk")) else { return }
    #expect(!key.isValidSignature(record.bytes("sig"), for: record.bytes("msg")))
  }

  @Test func invalidEncodingsOfPublicKeysAreRefused() {
    let p = Hex.decode("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f") ?? []
    #expect(throws: PublicKeyError.self) { try Ed25519.PublicKey(rawRepresentation: p) }
    #expect(throws: PublicKeyError.self) {
      try Ed25519.PublicKey(rawRepresentation: [1] + [UInt8](repeating: 0, count: 30) + [0x80])
    }
    #expect(throws: PublicKeyError.self) { try Ed25519.PublicKey(rawRepresentation: [UInt8](repeating: 0, count: 31)) }
    #expect(throws: PublicKeyError.self) { try Ed25519.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 33)) }
    // The neutral element (y = 1) is a valid encoding.
    #expect((try? Ed25519.PublicKey(rawRepresentation: [1] + [UInt8](repeating: 0, count: 31))) != nil)
  }

  @Test func wrongLengthsDoNotVerify() throws {
    let record = Vectors.records("ed25519/rfc8032-7.1.vec")[1]
    let key = try Ed25519.PublicKey(rawRepresentation: record.bytes("pk"))
    let signature = record.bytes("sig")
    #expect(!key.isValidSignature(Array(signature.dropLast()), for: record.bytes("msg")))
    #expect(!key.isValidSignature(signature + [0], for: record.bytes("msg")))
    #expect(!key.isValidSignature([], for: record.bytes("msg")))
  }

  @Test func roundTripsOnRandomKeys() throws {
    var random = try ChaCha20RandomNumberGenerator(seed: [UInt8](repeating: 9, count: 32))
    for round in 0..<24 {
      let key = Ed25519.PrivateKey(generatingWith: &random)
      let message = (0..<(round * 11)).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ round) }
      let signature = key.signature(for: message)
      #expect(signature.count == 64)
      #expect(key.publicKey.isValidSignature(signature, for: message))
      let reloaded = try Ed25519.PublicKey(rawRepresentation: key.publicKey.rawRepresentation)
      #expect(reloaded.isValidSignature(signature, for: message))
      var tampered = signature
      tampered[round % 64] ^= 0x40
      #expect(!reloaded.isValidSignature(tampered, for: message))
      #expect(!"\(key)".contains(Hex.encode(key.rawRepresentation)))
    }
  }
}

import KDBXBase
import KDBXCrypto
import Testing
import VectorSupport

@Suite("ECDSA P-256")
struct ECDSAP256Tests {
  static func publicKey(_ record: VectorRecord) -> P256.Signing.PublicKey? {
    try? P256.Signing.PublicKey(sec1Representation: [0x04] + record.bytes("qx") + record.bytes("qy"))
  }

  @Test("RFC 6979 A.2.5 deterministic signatures", arguments: Vectors.records("ecdsa-p256/rfc6979-a25.vec"))
  func rfc6979(_ record: VectorRecord) throws {
    let key = try P256.Signing.PrivateKey(rawRepresentation: record.bytes("d"))
    #expect(key.publicKey.sec1Representation() == [0x04] + record.bytes("qx") + record.bytes("qy"))
    let signature = key.signature(for: record.bytes("msg"))
    #expect(signature.rawRepresentation == record.bytes("r") + record.bytes("s"))
    #expect(key.publicKey.isValidSignature(signature, for: record.bytes("msg")))
  }

  @Test("the timing probes compute the parts of signing", arguments: Vectors.records("ecdsa-p256/rfc6979-a25.vec"))
  func timingProbes(_ record: VectorRecord) {
    // kdbx-bench's ct-p256-nonce etc. time these: they must be the computations they are named after.
    #expect(
      P256TimingProbe.nonce(key: record.bytes("d"), digest: SHA256.hash(record.bytes("msg")).bytes) == record.bytes("k")
    )
    let one = [UInt8](repeating: 0, count: 31) + [1]
    #expect(P256TimingProbe.fieldInverse(one) == one)
    #expect(P256TimingProbe.scalarInverse(one) == one)
    // -1 is its own inverse: p - 1 and n - 1.
    let pMinus1 =
      [UInt8](repeating: 0xff, count: 4) + [0, 0, 0, 1] + [UInt8](repeating: 0, count: 12)
      + [UInt8](repeating: 0xff, count: 11) + [0xfe]
    #expect(P256TimingProbe.fieldInverse(pMinus1) == pMinus1)
    #expect(P256TimingProbe.generatorMultiple([UInt8](repeating: 0, count: 32)) == [UInt8](repeating: 0, count: 32))
    #expect(P256TimingProbe.nonce(key: [1], digest: one).isEmpty)
  }

  @Test("edge cases (r, s out of range, high s, bad keys)", arguments: Vectors.records("ecdsa-p256/edge-cases.vec"))
  func edgeCases(_ record: VectorRecord) {
    let valid = record.int("valid") == 1
    guard let key = try? P256.Signing.PublicKey(sec1Representation: record.bytes("pk")),
      let signature = try? P256.Signing.ECDSASignature(rawRepresentation: record.bytes("sig"))
    else {
      #expect(!valid, "a valid record's key and signature must load")
      return
    }
    #expect(key.isValidSignature(signature, for: record.bytes("msg")) == valid)
  }

  @Test("NIST CAVP SigVer P-256/SHA-256", arguments: Vectors.records("ecdsa-p256/cavp-sigver.vec"))
  func sigVer(_ record: VectorRecord) throws {
    let signature = try P256.Signing.ECDSASignature(rawRepresentation: record.bytes("r") + record.bytes("s"))
    let valid = record.int("valid") == 1
    guard let key = Self.publicKey(record) else {
      #expect(!valid, "a valid record's key must load")
      return
    }
    #expect(key.isValidSignature(signature, for: record.bytes("msg")) == valid)
  }

  @Test("NIST CAVP SigGen P-256/SHA-256 (verify, public key)", arguments: Vectors.records("ecdsa-p256/cavp-siggen.vec"))
  func sigGen(_ record: VectorRecord) throws {
    let key = try P256.Signing.PrivateKey(rawRepresentation: record.bytes("d"))
    #expect(key.publicKey == Self.publicKey(record))
    let signature = try P256.Signing.ECDSASignature(rawRepresentation: record.bytes("r") + record.bytes("s"))
    #expect(key.publicKey.isValidSignature(signature, for: record.bytes("msg")))
    // Our own deterministic signature of the same message verifies too.
    #expect(key.publicKey.isValidSignature(key.signature(for: record.bytes("msg")), for: record.bytes("msg")))
    var tampered = record.bytes("msg")
    tampered[0] ^= 1
    #expect(!key.publicKey.isValidSignature(signature, for: tampered))
  }

  @Test("NIST CAVP KeyPair P-256", arguments: Vectors.records("ecdsa-p256/cavp-keypair.vec"))
  func keyPair(_ record: VectorRecord) throws {
    let key = try P256.Signing.PrivateKey(rawRepresentation: record.bytes("d"))
    let expected = [0x04] + record.bytes("qx") + record.bytes("qy")
    #expect(key.publicKey.sec1Representation() == expected)
    let parity: UInt8 = record.bytes("qy").last.map { $0 & 1 } ?? 0
    let compressed = key.publicKey.sec1Representation(compressed: true)
    #expect(compressed == [0x02 | parity] + record.bytes("qx"))
    #expect(try P256.Signing.PublicKey(sec1Representation: compressed) == key.publicKey)
  }

  @Test func roundTripsOnRandomKeys() throws {
    var random = try ChaCha20RandomNumberGenerator(seed: [UInt8](repeating: 7, count: 32))
    for round in 0..<24 {
      let key = P256.Signing.PrivateKey(generatingWith: &random)
      let message = (0..<(round * 7)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) }
      let signature = key.signature(for: message)
      #expect(key.publicKey.isValidSignature(signature, for: message))
      #expect(try P256.Signing.ECDSASignature(derRepresentation: signature.derRepresentation) == signature)
      var raw = signature.rawRepresentation
      raw[round % 64] ^= 0x10
      #expect(!key.publicKey.isValidSignature(try P256.Signing.ECDSASignature(rawRepresentation: raw), for: message))
      #expect(!key.publicKey.isValidSignature(signature, for: message + [0]))
      let reloaded = try P256.Signing.PrivateKey(rawRepresentation: key.rawRepresentation)
      #expect(reloaded.publicKey == key.publicKey)
      #expect(!"\(key)".contains(Hex.encode(key.rawRepresentation)))
    }
  }

  static let order = Hex.decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551") ?? []
  static let p = Hex.decode("ffffffff00000001000000000000000000000000ffffffffffffffffffffffff") ?? []

  @Test func edgeCasesOfSignatures() throws {
    let record = Vectors.records("ecdsa-p256/rfc6979-a25.vec")[0]
    let key = try P256.Signing.PrivateKey(rawRepresentation: record.bytes("d"))
    let message = record.bytes("msg")
    let r = record.bytes("r")
    let s = record.bytes("s")
    let zero = [UInt8](repeating: 0, count: 32)
    func verifies(_ r: [UInt8], _ s: [UInt8]) -> Bool {
      guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: r + s) else { return false }
      return key.publicKey.isValidSignature(signature, for: message)
    }
    #expect(verifies(r, s))
    #expect(!verifies(zero, s))
    #expect(!verifies(r, zero))
    #expect(!verifies(Self.order, s))
    #expect(!verifies(r, Self.order))
    #expect(!verifies([UInt8](repeating: 0xff, count: 32), s))
    // r + n and s + n (when they fit in 256 bits they still must be rejected, not reduced).
    // High s: n - s is also a valid signature (ECDSA is malleable; FIPS 186-5 accepts both).
    let highS = subtract(Self.order, s)
    #expect(verifies(r, highS))
    // Wrong lengths.
    #expect(throws: PublicKeyError.self) { try P256.Signing.ECDSASignature(rawRepresentation: r + s + [0]) }
    #expect(throws: PublicKeyError.self) { try P256.Signing.ECDSASignature(rawRepresentation: Array(r.dropLast())) }
  }

  @Test func invalidPublicKeys() throws {
    let record = Vectors.records("ecdsa-p256/rfc6979-a25.vec")[0]
    let x = record.bytes("qx")
    let y = record.bytes("qy")
    #expect((try? P256.Signing.PublicKey(sec1Representation: [0x04] + x + y)) != nil)
    var offCurve = y
    offCurve[31] ^= 1
    #expect(throws: PublicKeyError.self) { try P256.Signing.PublicKey(sec1Representation: [0x04] + x + offCurve) }
    #expect(throws: PublicKeyError.self) { try P256.Signing.PublicKey(sec1Representation: [0x00]) }
    #expect(throws: PublicKeyError.self) { try P256.Signing.PublicKey(sec1Representation: [0x05] + x + y) }
    #expect(throws: PublicKeyError.self) { try P256.Signing.PublicKey(sec1Representation: [0x04] + x) }
    #expect(throws: PublicKeyError.self) { try P256.Signing.PublicKey(sec1Representation: []) }
    #expect(throws: PublicKeyError.self) { try P256.Signing.PublicKey(sec1Representation: [0x04] + Self.p + y) }
    #expect(throws: PublicKeyError.self) { try P256.Signing.PublicKey(sec1Representation: [0x02] + Self.p) }
    // x = 0 has no square root of 0 - 0 + b? It is on the curve only if b is a square; either way no trap.
    _ = try? P256.Signing.PublicKey(sec1Representation: [0x02] + [UInt8](repeating: 0, count: 32))
    // A compressed x with no point: x = 5 (x^3 - 3x + b is a non-residue for some x; find one).
    var rejected = 0
    for value in UInt8(1)...UInt8(20) {
      let candidate = [0x03] + [UInt8](repeating: 0, count: 31) + [value]
      if (try? P256.Signing.PublicKey(sec1Representation: candidate)) == nil { rejected += 1 }
    }
    #expect(rejected > 0 && rejected < 20, "about half of x values have no point")
  }

  @Test func invalidPrivateKeys() {
    #expect(throws: PublicKeyError.self) {
      try P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32))
    }
    #expect(throws: PublicKeyError.self) { try P256.Signing.PrivateKey(rawRepresentation: Self.order) }
    #expect(throws: PublicKeyError.self) { try P256.Signing.PrivateKey(rawRepresentation: [1]) }
    let nMinusOne = subtract(Self.order, [UInt8](repeating: 0, count: 31) + [1])
    #expect((try? P256.Signing.PrivateKey(rawRepresentation: nMinusOne)) != nil)
  }

  @Test func strictDERSignatures() throws {
    let good: [UInt8] = [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]
    let signature = try P256.Signing.ECDSASignature(derRepresentation: good)
    #expect(signature.derRepresentation == good)
    let bad: [[UInt8]] = [
      [], [0x30], [0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02],  // truncated, lying length
      [0x30, 0x80, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02, 0x00, 0x00],  // indefinite length
      [0x30, 0x81, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02],  // non-minimal length
      [0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x02],  // non-minimal integer
      [0x30, 0x06, 0x02, 0x01, 0x81, 0x02, 0x01, 0x02],  // negative r
      [0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02, 0x00],  // trailing byte
      [0x30, 0x07, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02, 0x00],  // trailing byte inside
      [0x30, 0x03, 0x02, 0x01, 0x01],  // missing s
      [0x30, 0x06, 0x02, 0x00, 0x02, 0x01, 0x02, 0x00],  // empty integer
      [0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02],  // SET, not SEQUENCE
      [0x30, 0x84, 0xff, 0xff, 0xff, 0xff],  // huge length
      [0x30, 0x25, 0x02, 0x21, 0x01] + [UInt8](repeating: 0, count: 32) + [0x02, 0x01, 0x01],  // r of 33 bytes
    ]
    for bytes in bad {
      #expect(throws: PublicKeyError.self, "\(bytes)") { try P256.Signing.ECDSASignature(derRepresentation: bytes) }
    }
  }
}

/// a - b for 32-byte big-endian numbers with a >= b.
private func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
  var out = [UInt8](repeating: 0, count: 32)
  var borrow = 0
  for index in (0..<32).reversed() {
    var value = Int(a[index]) - Int(b[index]) - borrow
    borrow = value < 0 ? 1 : 0
    if value < 0 { value += 256 }
    out[index] = UInt8(value)
  }
  return out
}

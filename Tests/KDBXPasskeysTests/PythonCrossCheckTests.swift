import Foundation
import KDBXCrypto
import KDBXPasskeys
import Testing
import VectorSupport

/// Python `cryptography` (OpenSSL underneath) verifies 1,000 random signatures of ours per algorithm, and we verify
/// 1,000 of its own; each side also refuses every signature over a message with one bit flipped. Skipped, and the
/// skip reported, where `python3` with `cryptography` is missing (`pip install cryptography`).
@Suite(
  .enabled(if: EndToEnd.isEnabled, EndToEnd.skipReason),
  .enabled(if: PythonPeer.hasCryptography, "python3 with the cryptography package is not installed"))
struct PythonCrossCheckTests {
  static let count = 1000

  static func bytes(_ text: Substring) -> [UInt8] {
    var out: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex, let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex) {
      out.append(UInt8(text[index..<next], radix: 16) ?? 0)
      index = next
    }
    return out
  }

  /// Reads `ALG PUBLIC MESSAGE SIGNATURE` lines (hex) on stdin, verifies each and a one-bit-flipped copy of the
  /// message, prints `verified N rejected-tampered N`, then signs COUNT random messages with a key of its own per
  /// algorithm and prints them as lines in the same form.
  static let script = """
    import os, sys
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519
    verified = rejected = 0
    def check(alg, pub, msg, sig):
        try:
            if alg == "es256":
                ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), pub).verify(sig, msg, ec.ECDSA(hashes.SHA256()))
            else:
                ed25519.Ed25519PublicKey.from_public_bytes(pub).verify(sig, msg)
            return True
        except InvalidSignature:
            return False
    for line in sys.stdin:
        alg, pub, msg, sig = line.split()
        pub, msg, sig = bytes.fromhex(pub), bytes.fromhex(msg), bytes.fromhex(sig)
        verified += check(alg, pub, msg, sig)
        flipped = bytearray(msg or b"\\0"); flipped[0] ^= 1
        rejected += not check(alg, pub, bytes(flipped), sig)
    print("verified", verified, "rejected-tampered", rejected)
    count = int(sys.argv[1])
    p256 = ec.generate_private_key(ec.SECP256R1())
    p256_pub = p256.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    ed = ed25519.Ed25519PrivateKey.generate()
    ed_pub = ed.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    for i in range(count):
        msg = os.urandom(i % 200)
        print("es256", p256_pub.hex(), msg.hex() or "-", p256.sign(msg, ec.ECDSA(hashes.SHA256())).hex())
        print("eddsa", ed_pub.hex(), msg.hex() or "-", ed.sign(msg).hex())
    """

  @Test func signaturesCrossCheckWithPythonCryptography() throws {
    var random = SplitMix64(seed: 0xC0FFEE)
    let p256 = P256.Signing.PrivateKey(generatingWith: &random)
    let ed = Ed25519.PrivateKey(generatingWith: &random)
    var input = ""
    for index in 0..<Self.count {
      // Random messages of every length from 1 to 200 bytes.
      let message = (0...(index % 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let ecdsa = p256.signature(for: message).derRepresentation
      input +=
        "es256 \(TestHex.string(p256.publicKey.sec1Representation())) \(TestHex.string(message)) \(TestHex.string(ecdsa))\n"
      input +=
        "eddsa \(TestHex.string(ed.publicKey.rawRepresentation)) \(TestHex.string(message)) \(TestHex.string(ed.signature(for: message)))\n"
    }
    let result = try PythonPeer.python(["-c", Self.script, String(Self.count)], input: input)
    #expect(result.status == 0, "\(result.err)")
    var lines = result.out.split(separator: "\n")[...]
    #expect(lines.popFirst() == "verified \(2 * Self.count) rejected-tampered \(2 * Self.count)")
    var checked = [Substring: Int]()
    var refused = 0
    for line in lines {
      let parts = line.split(separator: " ")
      guard parts.count == 4 else { continue }
      let message = parts[2] == "-" ? [] : Self.bytes(parts[2])
      let signature = Self.bytes(parts[3])
      var flipped = message.isEmpty ? [0] : message
      flipped[0] ^= 1
      let key: COSEKey =
        parts[0] == "es256"
        ? .p256(try P256.Signing.PublicKey(sec1Representation: Self.bytes(parts[1])))
        : .ed25519(try Ed25519.PublicKey(rawRepresentation: Self.bytes(parts[1])))
      if key.isValidSignature(signature, for: message) { checked[parts[0], default: 0] += 1 }
      if !key.isValidSignature(signature, for: flipped) { refused += 1 }
    }
    #expect(checked == ["es256": Self.count, "eddsa": Self.count], "ours verify theirs")
    #expect(refused == 2 * Self.count)
    print(
      "note: cross-checked \(Self.count) ES256 and \(Self.count) Ed25519 signatures each way with Python cryptography")
  }
}

/// `python3`, run through `/usr/bin/env`.
enum PythonPeer {
  static let hasCryptography: Bool = {
    let found = (try? python(["-c", "import cryptography"], input: "").status) == 0
    if !found {
      print("note: SKIP: PythonCrossCheckTests: python3 with cryptography is missing (pip install cryptography)")
    }
    return found
  }()

  static func python(_ arguments: [String], input: String) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3"] + arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let errors = ErrorBox()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      errors.data = stderr.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let writer = DispatchQueue(label: "stdin")
    writer.async {
      try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
      try? stdin.fileHandleForWriting.close()
    }
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    group.wait()
    return (
      process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: errors.data, as: UTF8.self)
    )
  }

  final class ErrorBox: @unchecked Sendable {
    var data = Data()
  }
}

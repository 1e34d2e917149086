// Public-key benchmarks (ECDSA P-256, Ed25519), the signature emitter for the cross-check with PyPI cryptography
// (Vectors/tools/signature_crosscheck.py) and a dudect-style constant-time check. Registered in main.swift through
// `publicKeyBenchmarks()`, `emitSignatures(count:)` and `constantTimeCheck(_:samples:)`.
import KDBXBase
import KDBXCrypto

func publicKeyBenchmarks() -> [Benchmark] {
  let message = Array("a passkey assertion: authenticatorData || SHA-256(clientDataJSON)".utf8)
  return [
    Benchmark(name: "p256-sign", unit: .perSecond(itemsPerIteration: 1, label: "sign/s")) {
      var random = BenchRandom(seed: 0x9256)
      let key = try? P256.Signing.PrivateKey(rawRepresentation: [1] + random.bytes(31))
      return { iterations in
        for _ in 0..<iterations { blackHole(key?.signature(for: message)) }
      }
    },
    Benchmark(name: "p256-verify", unit: .perSecond(itemsPerIteration: 1, label: "verify/s")) {
      var random = BenchRandom(seed: 0x9256)
      let key = try? P256.Signing.PrivateKey(rawRepresentation: [1] + random.bytes(31))
      let signature = key?.signature(for: message)
      return { iterations in
        for _ in 0..<iterations {
          if let key, let signature { blackHole(key.publicKey.isValidSignature(signature, for: message)) }
        }
      }
    },
    Benchmark(name: "ed25519-sign", unit: .perSecond(itemsPerIteration: 1, label: "sign/s")) {
      var random = BenchRandom(seed: 0xed25)
      let key = try? Ed25519.PrivateKey(rawRepresentation: random.bytes(32))
      return { iterations in
        for _ in 0..<iterations { blackHole(key?.signature(for: message)) }
      }
    },
    Benchmark(name: "ed25519-verify", unit: .perSecond(itemsPerIteration: 1, label: "verify/s")) {
      var random = BenchRandom(seed: 0xed25)
      let key = try? Ed25519.PrivateKey(rawRepresentation: random.bytes(32))
      let signature = key?.signature(for: message) ?? []
      return { iterations in
        for _ in 0..<iterations { blackHole(key?.publicKey.isValidSignature(signature, for: message)) }
      }
    },
  ]
}

private func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

/// Prints `count` signatures per algorithm made by this library, one a line, for
/// Vectors/tools/signature_crosscheck.py to verify with PyPI cryptography:
/// `ecdsa-p256 SPKI-DER MESSAGE SIGNATURE-DER`, `ed25519 PUBLIC-KEY MESSAGE SIGNATURE`, and for every key its PEM
/// (`pem PEM-AS-HEX PUBLIC-KEY`), all hexadecimal. A new key every 100 signatures. Returns the exit status.
func emitSignatures(count: Int) -> Int32 {
  var random = BenchRandom(seed: 0x0c55)
  var p256: P256.Signing.PrivateKey?
  var ed25519: Ed25519.PrivateKey?
  for index in 0..<count {
    if index % 100 == 0 {
      var seed = random.bytes(32)
      seed[0] &= 0x7f  // below the P-256 order
      p256 = try? P256.Signing.PrivateKey(rawRepresentation: seed)
      ed25519 = try? Ed25519.PrivateKey(rawRepresentation: random.bytes(32))
      guard let p256, let ed25519 else { return 1 }
      print("pem \(hex(Array(p256.pemRepresentation.utf8))) \(hex(p256.publicKey.sec1Representation()))")
      print("pem \(hex(Array(p256.sec1PEMRepresentation.utf8))) \(hex(p256.publicKey.sec1Representation()))")
      print("pem \(hex(Array(ed25519.pemRepresentation.utf8))) \(hex(ed25519.publicKey.rawRepresentation))")
    }
    let message = random.bytes(index % 64)
    guard let p256, let ed25519 else { return 1 }
    let signature = p256.signature(for: message).derRepresentation
    print("ecdsa-p256 \(hex(p256.publicKey.derRepresentation)) \(hex(message)) \(hex(signature))")
    print("ed25519 \(hex(ed25519.publicKey.rawRepresentation)) \(hex(message)) \(hex(ed25519.signature(for: message)))")
  }
  return 0
}

/// Welch's t statistic of two samples (dudect: Reparaz, Balasch and Verbauwhede, "Dude, is my code constant
/// time?", DATE 2017).
private func welch(_ a: [Double], _ b: [Double]) -> Double {
  func moments(_ values: [Double]) -> (mean: Double, variance: Double) {
    let mean = values.reduce(0, +) / Double(max(values.count, 1))
    let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(max(values.count - 1, 1))
    return (mean, variance)
  }
  let (meanA, varianceA) = moments(a)
  let (meanB, varianceB) = moments(b)
  let denominator = (varianceA / Double(max(a.count, 1)) + varianceB / Double(max(b.count, 1))).squareRoot()
  return denominator > 0 ? (meanA - meanB) / denominator : 0
}

/// A dudect-style check of signing: `samples` timings of signing with one fixed key and message (class 0, 256 copies) against
/// keys and messages drawn from a pool of 256 random ones (class 1), the class chosen at random for every sample.
/// Prints Welch's t for all samples and for samples cropped at the 50th to 99th percentiles; |t| above 4.5 is
/// dudect's sign of a leak. `which` is `ct-p256` or `ct-ed25519`, or one of the variants that localise a difference:
/// `ct-p256-key` (the message is the fixed one in both classes, only the key differs), `ct-p256-message` (the key is
/// the fixed one in both classes, only the message differs) and `ct-p256-keygen` (making the key from its 32 bytes:
/// the scalar multiplication d·G, the field inversion of the affine conversion and the encoding, no nonce, no
/// scalar inversion). `ct-p256-decompress` is a control on public data: reading a compressed public key (a square
/// root, x^((p+1)/4), by the same field arithmetic with one instruction sequence for every input) of the fixed key
/// against random keys; a |t| above 4.5 there is a timing difference of the machine for the same instructions on
/// other values, not a leak of the code. `ct-sha256` is another such control without P-256: SHA-256 of 4 KiB of
/// zeros and a fixed or random 32-byte tail. The parts of signing alone (`P256TimingProbe`): `ct-p256-nonce`
/// (RFC 6979's k from the key and the digest), `ct-p256-mul` (k·G from the generator table, projective),
/// `ct-p256-field-inverse` (Fermat inversion mod p) and `ct-p256-scalar-inverse` (Fermat inversion mod n), on
/// the fixed or a random 32-byte value. The fixed value is SHA-256(`label`), or the 32 bytes written after
/// `hex:` (for the parts: `hex:` and 63 zeros and a 1 is the value 1, whose powers are all 1); keys take its last
/// 31 bytes after a byte 1. Returns the exit status.
func constantTimeCheck(_ which: String, samples: Int, label: String = "dudect fixed key") -> Int32 {
  let variants = [
    "ct-p256", "ct-p256-key", "ct-p256-message", "ct-p256-keygen", "ct-p256-decompress", "ct-p256-nonce", "ct-p256-mul",
    "ct-p256-field-inverse", "ct-p256-scalar-inverse", "ct-sha256", "ct-ed25519",
  ]
  guard variants.contains(which) else {
    print("unknown check \(which); one of: \(variants.joined(separator: " "))")
    return 1
  }
  var random = BenchRandom(seed: 0xd0de)
  let clock = ContinuousClock()
  // Both classes are pools of 256 separately made keys (the fixed class: 256 copies of one key and message), made
  // alternately (even entries fixed, odd entries random), so that memory placement and caching treat them alike and
  // only the secret values differ.
  // The fixed key and message are themselves random-looking (a hash of a label), with a Hamming weight like the
  // random class's: a value like 0x4242... also draws less power, which can change the clock (Hertzbleed).
  let fixedSeed = fixedValue(label)
  let fixedMessage = SHA256.hash(Array("dudect fixed message".utf8)).bytes
  var sign: [() -> Void] = []
  for index in 0..<512 {
    let fixed = index % 2 == 0
    let seed = fixed || which == "ct-p256-message" ? fixedSeed : random.bytes(32)
    let message = fixed || which == "ct-p256-key" ? fixedMessage : random.bytes(32)
    // The parts take any 32-byte value (so that `hex:` can give them, say, 1); keys have a first byte of 1.
    let input = seed
    if which == "ct-p256-nonce" {
      sign.append { blackHole(P256TimingProbe.nonce(key: input, digest: message)) }
    } else if which == "ct-p256-mul" {
      sign.append { blackHole(P256TimingProbe.generatorMultiple(input)) }
    } else if which == "ct-p256-field-inverse" {
      sign.append { blackHole(P256TimingProbe.fieldInverse(input)) }
    } else if which == "ct-p256-scalar-inverse" {
      sign.append { blackHole(P256TimingProbe.scalarInverse(input)) }
    } else if which == "ct-sha256" {
      let block = [UInt8](repeating: 0, count: 4096) + (fixed ? fixedMessage : message)
      sign.append { blackHole(SHA256.hash(block)) }
    } else if which == "ct-ed25519" {
      guard let key = try? Ed25519.PrivateKey(rawRepresentation: seed) else { return 1 }
      sign.append { blackHole(key.signature(for: message)) }
    } else if which == "ct-p256-decompress" {
      // The random keys are drawn until their compressed form has the fixed key's prefix byte (02 or 03), which the
      // decoder's `switch` compares: both classes then take the same branches.
      guard let fixedKey = try? P256.Signing.PrivateKey(rawRepresentation: [0x01] + fixedSeed.dropFirst()) else {
        return 1
      }
      let prefix = fixedKey.publicKey.sec1Representation(compressed: true)[0]
      var encoded = fixedKey.publicKey.sec1Representation(compressed: true)
      while !fixed {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: [0x01] + random.bytes(31)) else { return 1 }
        encoded = key.publicKey.sec1Representation(compressed: true)
        if encoded[0] == prefix { break }
      }
      sign.append { [encoded] in blackHole(try? P256.Signing.PublicKey(sec1Representation: encoded)) }
    } else if which == "ct-p256-keygen" {
      let bytes = [0x01] + seed.dropFirst()
      sign.append { blackHole(try? P256.Signing.PrivateKey(rawRepresentation: bytes)) }
    } else {
      guard let key = try? P256.Signing.PrivateKey(rawRepresentation: [0x01] + seed.dropFirst()) else { return 1 }
      let digest = SHA256.hash(message)
      sign.append { blackHole(key.signature(forDigest: digest)) }
    }
  }
  // timings[2] and [3]: a control, class 0 split at random in two halves that sign the same fixed key and message;
  // their t shows how large |t| gets from the machine and the cropping alone.
  var timings: [[Double]] = [[], [], [], []]
  for _ in 0..<1000 { sign[Int(random.next() % 512)]() }  // warm-up
  for _ in 0..<samples {
    let draw = random.next()
    let group = Int(draw & 1)
    let body = sign[2 * Int((draw >> 8) % 256) + group]
    let elapsed = seconds(clock.measure(body))
    timings[group].append(elapsed * 1e9)
    if group == 0 { timings[2 + Int((draw >> 40) & 1)].append(elapsed * 1e9) }
  }
  let all = (timings[0] + timings[1]).sorted()
  print("\(which): \(timings[0].count) fixed + \(timings[1].count) random samples")
  print(
    "median ns: fixed \(format(timings[0].sorted()[timings[0].count / 2])), random "
      + "\(format(timings[1].sorted()[timings[1].count / 2]))")
  var worst = abs(welch(timings[0], timings[1]))
  var worstControl = abs(welch(timings[2], timings[3]))
  print(
    "t (all samples): \(format(welch(timings[0], timings[1]))), control \(format(welch(timings[2], timings[3])))")
  for percentile in [50, 75, 90, 95, 99] {
    let cut = all[min(all.count - 1, all.count * percentile / 100)]
    let t = welch(timings[0].filter { $0 <= cut }, timings[1].filter { $0 <= cut })
    let control = welch(timings[2].filter { $0 <= cut }, timings[3].filter { $0 <= cut })
    worst = max(worst, abs(t))
    worstControl = max(worstControl, abs(control))
    print("t (below the \(percentile)th percentile, \(format(cut)) ns): \(format(t)), control \(format(control))")
  }
  print("max |t| = \(format(worst)) (dudect threshold 4.5); control (fixed vs fixed) max |t| = \(format(worstControl))")
  return 0
}

/// SHA-256(`label`), or the 32 bytes of hexadecimal after `hex:` (SHA-256 of the label when they are not 64 digits).
private func fixedValue(_ label: String) -> [UInt8] {
  let digits = Array(label.utf8.dropFirst(4))
  guard label.hasPrefix("hex:"), digits.count == 64, let bytes = Hex.decode(utf8: digits) else {
    return SHA256.hash(Array(label.utf8)).bytes
  }
  return bytes
}

/// Bytes equal to `bytes` that valgrind's memcheck takes for undefined: each byte is XORed twice with the same
/// byte of fresh, never written memory. Memcheck then reports every conditional jump and every memory address
/// that depends on them ("ctgrind", Langley 2010), without its client requests. Not optimized, so that the
/// compiler does not fold the two XORs.
@inline(never)
@_optimize(none)
private func undefinedForMemcheck(_ bytes: [UInt8]) -> [UInt8] {
  let noise = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
  // SAFETY: `noise` holds `max(bytes.count, 1)` bytes, freed once below; only offsets below `bytes.count` are read.
  defer { noise.deallocate() }
  var out = bytes
  for index in 0..<bytes.count {
    // SAFETY: index < bytes.count <= the allocation's size; UInt8 is trivial, so reading unwritten memory gives
    // some byte, the same one both times (that is the point: memcheck sees it as undefined).
    let first = noise.load(fromByteOffset: index, as: UInt8.self)
    let second = noise.load(fromByteOffset: index, as: UInt8.self)
    out[index] = out[index] ^ first ^ second
  }
  return out
}

/// Signs `count` times with the key SHA-256(`label`) (`p256` or `ed25519`), the key's bytes marked undefined for
/// memcheck, messages public. Run under `valgrind --tool=memcheck` it lists the branches and addresses that depend
/// on the key; under `valgrind --tool=cachegrind` with two labels it shows whether the instruction counts differ.
/// Expected reports for P-256: the range check of d when the key is read, RFC 6979's check of k against n and the
/// checks of r and s against zero (outcomes that are public or happen with probability about 2^-32 and below).
func secretFlowCheck(_ algorithm: String, label: String, count: Int) -> Int32 {
  let seed = undefinedForMemcheck(SHA256.hash(Array(label.utf8)).bytes)
  var random = BenchRandom(seed: 0xc7)
  if algorithm == "p256" {
    guard let key = try? P256.Signing.PrivateKey(rawRepresentation: [0x01] + seed.dropFirst()) else { return 1 }
    for _ in 0..<count { blackHole(key.signature(forDigest: SHA256.hash(random.bytes(32)))) }
  } else {
    guard let key = try? Ed25519.PrivateKey(rawRepresentation: seed) else { return 1 }
    for _ in 0..<count { blackHole(key.signature(for: random.bytes(32))) }
  }
  return 0
}

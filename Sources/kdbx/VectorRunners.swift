import KDBXBase
import KDBXCrypto

/// Runs one record of a vector file through the library's primitives; throws what did not match.
typealias VectorRunner = (VectorRecord) throws(VectorMismatch) -> Void

/// The primitives behind each file of `Vectors/` (the same checks as the Swift tests that read them), chosen by
/// the file's path relative to the vectors folder. `nil`: no runner, which `kdbx selftest --vectors` reports.
enum VectorRunners {
  static func runner(for path: String) -> VectorRunner? {
    let parts = path.split(separator: "/").map(String.init)
    guard let folder = parts.first, let name = parts.last else { return nil }
    switch folder {
    case "sha1": return hashRunner(SHA1.self, name)
    case "sha256": return hashRunner(SHA256.self, name)
    case "sha512": return hashRunner(SHA512.self, name)
    case "hmac":
      if name.contains("sha1") { return { record throws(VectorMismatch) in try hmac(SHA1.self, record) } }
      if name.contains("sha256") { return { record throws(VectorMismatch) in try hmac(SHA256.self, record) } }
      if name.contains("sha512") { return { record throws(VectorMismatch) in try hmac(SHA512.self, record) } }
      return nil
    case "aes": return aesRunner(name)
    case "twofish":
      if name.hasPrefix("ecb") { return twofishECB }
      if name.hasPrefix("cbc") { return twofishCBC }
      return nil
    case "chacha20":
      switch name {
      case "rfc8439-block.vec": return chachaBlock
      case "rfc8439-encrypt.vec": return chachaEncrypt
      case "csprng-pycryptodome.vec": return chachaRNG
      default: return nil
      }
    case "salsa20": return salsa20
    case "blake2b": return blake2b
    case "argon2": return argon2
    case "aeskdf": return aesKDF
    case "ecdsa-p256", "ed25519", "pem", "crosscheck": return publicKeyRunner(folder: folder, name: name)
    default: return formatRunner(folder: folder, name: name, path: path)
    }
  }

  static func check(_ condition: Bool, _ what: @autoclosure () -> String) throws(VectorMismatch) {
    if !condition { throw VectorMismatch(what()) }
  }

  static func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

  /// `body`'s result; an error it throws is a mismatch that names the error (`describe`: how).
  static func attempt<T, Failure: Error>(
    _ body: () throws(Failure) -> T, describe: (Failure) -> String = { "\($0)" }
  ) throws(VectorMismatch) -> T {
    do {
      return try body()
    } catch {
      throw VectorMismatch("threw \(describe(error))")
    }
  }
}

// MARK: - Hashes, HMAC, BLAKE2b

extension VectorRunners {
  static func hashRunner<H: HashFunction>(_: H.Type, _ name: String) -> VectorRunner? {
    if name.contains("monte") {
      return { record throws(VectorMismatch) in
        // SHAVS §6.4: MD0 = MD1 = MD2 = seed; MDi = SHA(MD(i-3) || MD(i-2) || MD(i-1)), i = 3...1002.
        let seed = try record.bytes("seed")
        var (md0, md1, md2) = (seed, seed, seed)
        for _ in 3...1002 {
          var hasher = H()
          hasher.update(md0)
          hasher.update(md1)
          hasher.update(md2)
          (md0, md1, md2) = (md1, md2, hasher.finalize().bytes)
        }
        try check(md2 == record.bytes("md"), "Monte Carlo digest \(hex(md2))")
      }
    }
    return { record throws(VectorMismatch) in
      var message = try record.bytes("msg")
      if record.has("repeat") {
        let unit = message
        let count = try record.int("repeat")
        try check(count >= 0 && count <= 100_000_000 / max(unit.count, 1), "repeat out of range")
        message = []
        message.reserveCapacity(unit.count * count)
        for _ in 0..<count { message += unit }
      }
      if record.has("len") { try check(message.count * 8 == record.int("len"), "len disagrees with msg") }
      let expected = try record.bytes("md")
      let digest = H.hash(message).bytes
      try check(digest == expected, "digest \(hex(digest))")
      // The same message in uneven pieces through the streaming interface.
      var hasher = H()
      var offset = 0
      var piece = 1
      while offset < message.count {
        let end = min(offset + piece, message.count)
        hasher.update(message[offset..<end])
        offset = end
        piece = piece < 4096 ? piece + 1 : 9973
      }
      try check(hasher.finalize().bytes == expected, "streamed digest differs")
    }
  }

  static func hmac<H: HashFunction>(_: H.Type, _ record: VectorRecord) throws(VectorMismatch) {
    let expected = try record.bytes("mac")
    let mac = HMAC<H>.authenticationCode(for: try record.bytes("msg"), key: try record.bytes("key")).bytes
    try check(expected.count <= mac.count && Array(mac.prefix(expected.count)) == expected, "mac \(hex(mac))")
  }

  static func blake2b(_ record: VectorRecord) throws(VectorMismatch) {
    let input = try record.bytes(record.has("in") ? "in" : "msg")
    let key = record.has("key") ? try record.bytes("key") : []
    let length = record.has("out") ? try record.int("out") : 64
    let digest = try attempt { () throws(CryptoError) in try BLAKE2b.hash(input, outputByteCount: length, key: key) }
    try check(digest == record.bytes("md"), "digest \(hex(digest))")
  }
}

// MARK: - Block ciphers

extension VectorRunners {
  static func aesRunner(_ name: String) -> VectorRunner? {
    if name == "fips197-c3.vec" { return aesBlock }
    if name.hasPrefix("cavp-ecb") { return aesECB }
    if name.hasPrefix("cavp-cbc") { return aesCBC }
    if name.hasPrefix("aesavs-mct-ecb") {
      let encrypting = name.contains("encrypt")
      return { record throws(VectorMismatch) in try aesMonteECB(record, encrypting: encrypting) }
    }
    if name.hasPrefix("aesavs-mct-cbc") {
      let encrypting = name.contains("encrypt")
      return { record throws(VectorMismatch) in try aesMonteCBC(record, encrypting: encrypting) }
    }
    return nil
  }

  static func aesBlock(_ record: VectorRecord) throws(VectorMismatch) {
    let key = try record.bytes("key")
    let plaintext = try record.bytes("plaintext")
    let ciphertext = try record.bytes("ciphertext")
    let table = try attempt { () throws(CryptoError) in try AES(key: key) }
    let bitsliced = try attempt { () throws(CryptoError) in try ConstantTimeAES(key: key) }
    try check(table.encryptBlock(plaintext) == ciphertext, "table encrypt")
    try check(table.decryptBlock(ciphertext) == plaintext, "table decrypt")
    try check(bitsliced.encryptBlock(plaintext) == ciphertext, "constant-time encrypt")
    try check(bitsliced.decryptBlock(ciphertext) == plaintext, "constant-time decrypt")
  }

  static func aesECB(_ record: VectorRecord) throws(VectorMismatch) {
    let key = try record.bytes("key")
    let plaintext = try record.bytes("plaintext")
    let ciphertext = try record.bytes("ciphertext")
    try check(plaintext.count == ciphertext.count && plaintext.count % 16 == 0, "lengths")
    let table = try attempt { () throws(CryptoError) in try AES(key: key) }
    let bitsliced = try attempt { () throws(CryptoError) in try ConstantTimeAES(key: key) }
    let encrypting = try record.string("direction") == "encrypt"
    let (input, expected) = encrypting ? (plaintext, ciphertext) : (ciphertext, plaintext)
    let direction = encrypting ? "encrypt" : "decrypt"
    // SAFETY: each `withUnsafeMutableBytes` hands the cipher the buffer's own bytes for the closure only; the
    // length is a whole number of 16-byte blocks (checked above), which is what the block functions require.
    var buffer = input
    buffer.withUnsafeMutableBytes { encrypting ? table.encryptBlocks($0) : table.decryptBlocks($0) }
    try check(buffer == expected, "table \(direction) \(hex(buffer))")
    buffer = input
    // SAFETY: as above: the buffer's own bytes, whole blocks, for the closure only.
    buffer.withUnsafeMutableBytes { encrypting ? bitsliced.encryptBlocks($0) : bitsliced.decryptBlocks($0) }
    try check(buffer == expected, "constant-time \(direction) \(hex(buffer))")
  }

  static func aesCBC(_ record: VectorRecord) throws(VectorMismatch) {
    let key = try record.bytes("key")
    let iv = try record.bytes("iv")
    let plaintext = try record.bytes("plaintext")
    let ciphertext = try record.bytes("ciphertext")
    var cbc = try attempt { () throws(CryptoError) in try CBC<AES>(key: key, iv: iv) }
    let encrypting = try record.string("direction") == "encrypt"
    var buffer = encrypting ? plaintext : ciphertext
    try attempt { () throws(CryptoError) in
      try encrypting ? cbc.encrypt(blocksInPlace: &buffer) : cbc.decrypt(blocksInPlace: &buffer)
    }
    try check(buffer == (encrypting ? ciphertext : plaintext), "\(encrypting ? "encrypt" : "decrypt") \(hex(buffer))")
  }

  static func block(_ bytes: [UInt8]) throws(VectorMismatch) -> SIMD16<UInt8> {
    try check(bytes.count == 16, "a block must be 16 bytes")
    var vector = SIMD16<UInt8>()
    for index in 0..<16 { vector[index] = bytes[index] }
    return vector
  }

  static func bytes(_ vector: SIMD16<UInt8>) -> [UInt8] { (0..<16).map { vector[$0] } }

  /// AESAVS §6.4.1: 1000 chained ECB operations.
  static func aesMonteECB(_ record: VectorRecord, encrypting: Bool) throws(VectorMismatch) {
    let key = try record.bytes("key")
    let aes = try attempt { () throws(CryptoError) in try AES(key: key) }
    var text = try block(record.bytes(encrypting ? "plaintext" : "ciphertext"))
    for _ in 0..<1000 { text = encrypting ? aes.encryptBlock(text) : aes.decryptBlock(text) }
    try check(bytes(text) == record.bytes(encrypting ? "ciphertext" : "plaintext"), "result \(hex(bytes(text)))")
  }

  /// AESAVS §6.4.2 inner loop: the next input is the IV (j = 0) or the output two steps back.
  static func aesMonteCBC(_ record: VectorRecord, encrypting: Bool) throws(VectorMismatch) {
    let key = try record.bytes("key")
    let aes = try attempt { () throws(CryptoError) in try AES(key: key) }
    let iv = try block(record.bytes("iv"))
    var input = try block(record.bytes(encrypting ? "plaintext" : "ciphertext"))
    var chain = iv
    var outputs: [SIMD16<UInt8>] = []
    for j in 0..<1000 {
      let output: SIMD16<UInt8>
      if encrypting {
        output = aes.encryptBlock(input ^ chain)
        chain = output
      } else {
        output = aes.decryptBlock(input) ^ chain
        chain = input
      }
      input = j == 0 ? iv : outputs[j - 1]
      outputs.append(output)
    }
    let last = outputs.last.map(bytes) ?? []
    try check(last == record.bytes(encrypting ? "ciphertext" : "plaintext"), "result \(hex(last))")
  }

  static func twofishECB(_ record: VectorRecord) throws(VectorMismatch) {
    let key = try record.bytes("key")
    let cipher = try attempt { () throws(CryptoError) in try Twofish(key: key) }
    try check(cipher.encryptBlock(record.bytes("plaintext")) == record.bytes("ciphertext"), "encrypt")
    try check(cipher.decryptBlock(record.bytes("ciphertext")) == record.bytes("plaintext"), "decrypt")
  }

  static func twofishCBC(_ record: VectorRecord) throws(VectorMismatch) {
    let key = try record.bytes("key")
    let iv = try record.bytes("iv")
    let plaintext = try record.bytes("plaintext")
    var encryptor = try attempt { () throws(CryptoError) in try CBC<Twofish>(key: key, iv: iv) }
    var buffer = plaintext
    try attempt { () throws(CryptoError) in try encryptor.encrypt(blocksInPlace: &buffer) }
    try check(buffer == record.bytes("ciphertext"), "encrypt \(hex(buffer))")
    var decryptor = try attempt { () throws(CryptoError) in try CBC<Twofish>(key: key, iv: iv) }
    try attempt { () throws(CryptoError) in try decryptor.decrypt(blocksInPlace: &buffer) }
    try check(buffer == plaintext, "decrypt")
  }
}

// MARK: - Stream ciphers and key derivation

extension VectorRunners {
  /// The record's ChaCha20 key, nonce and initial block counter.
  static func chachaInput(_ record: VectorRecord) throws(VectorMismatch) -> (
    key: [UInt8], nonce: [UInt8], counter: UInt32
  ) {
    (try record.bytes("key"), try record.bytes("nonce"), UInt32(clamping: try record.int("counter")))
  }

  /// `bytes` XORed with the ChaCha20 key stream of the record's key, nonce and counter (the streaming kernel).
  static func chacha(_ record: VectorRecord, _ bytes: [UInt8]) throws(VectorMismatch) -> [UInt8] {
    let (key, nonce, counter) = try chachaInput(record)
    var output = bytes
    try attempt { () throws(CryptoError) in
      var cipher = try ChaCha20(key: key, nonce: nonce, counter: counter)
      try cipher.apply(to: &output)
    }
    return output
  }

  static func chachaBlock(_ record: VectorRecord) throws(VectorMismatch) {
    let (key, nonce, counter) = try chachaInput(record)
    let expected = try record.bytes("keystream")
    let reference = try attempt { () throws(CryptoError) in try ChaCha20.block(key: key, nonce: nonce, counter: counter)
    }
    try check(reference == expected, "reference block \(hex(reference))")
    let stream = try chacha(record, [UInt8](repeating: 0, count: 64))
    try check(stream == expected, "kernel \(hex(stream))")
  }

  static func chachaEncrypt(_ record: VectorRecord) throws(VectorMismatch) {
    let bytes = try chacha(record, try record.bytes("plaintext"))
    try check(bytes == record.bytes("ciphertext"), "ciphertext \(hex(bytes))")
  }

  static func chachaRNG(_ record: VectorRecord) throws(VectorMismatch) {
    let seed = try record.bytes("seed")
    var generator = try attempt { () throws(CryptoError) in try ChaCha20RandomNumberGenerator(seed: seed) }
    let expected = try record.bytes("outputs")
    var produced: [UInt8] = []
    while produced.count < expected.count {
      let word = generator.next()
      for shift in stride(from: 0, to: 64, by: 8) { produced.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }
    try check(produced == expected, "outputs differ")
  }

  static func salsa20(_ record: VectorRecord) throws(VectorMismatch) {
    let key = try record.bytes("key")
    let iv = try record.bytes("iv")
    var cipher = try attempt { () throws(CryptoError) in try Salsa20(key: key, nonce: iv) }
    var stream = [UInt8](repeating: 0, count: 512)
    cipher.apply(to: &stream)
    try check(Array(stream[0..<64]) == record.bytes("stream0_63"), "bytes 0-63")
    try check(Array(stream[192..<256]) == record.bytes("stream192_255"), "bytes 192-255")
    try check(Array(stream[256..<320]) == record.bytes("stream256_319"), "bytes 256-319")
    try check(Array(stream[448..<512]) == record.bytes("stream448_511"), "bytes 448-511")
    let reference = try attempt { () throws(CryptoError) in try Salsa20.block(key: key, nonce: iv, counter: 3) }
    try check(reference == Array(stream[192..<256]), "reference block 3")
  }

  static func argon2(_ record: VectorRecord) throws(VectorMismatch) {
    let variants: [String: Argon2.Variant] = ["d": .d, "i": .i, "id": .id]
    guard let variant = variants[try record.string("variant")] else { throw VectorMismatch("unknown variant") }
    guard let version = Argon2.Version(rawValue: UInt32(clamping: try record.int("version"))) else {
      throw VectorMismatch("unknown version")
    }
    let expected = try record.bytes("tag")
    let iterations = try record.int("iterations")
    let memory = try record.int("memory")
    let lanes = try record.int("lanes")
    let secret = try record.bytes("secret")
    let associated = try record.bytes("ad")
    let password = try record.bytes("password")
    let salt = try record.bytes("salt")
    let tag = try attempt { () throws(CryptoError) in
      let parameters = try Argon2.Parameters(
        variant: variant, version: version, iterations: iterations, memoryKiB: memory, lanes: lanes,
        outputLength: expected.count, secret: secret, associatedData: associated)
      return try Argon2.deriveKey(password: password, salt: salt, parameters: parameters)
    }
    try check(tag == expected, "tag \(hex(tag))")
  }

  static func aesKDF(_ record: VectorRecord) throws(VectorMismatch) {
    let key = try record.bytes("key")
    let seed = try record.bytes("seed")
    let rounds = UInt64(clamping: try record.int("rounds"))
    let expected = try record.bytes("transformed")
    let table = try attempt { () throws(CryptoError) in try AESKDF.transform(key: key, seed: seed, rounds: rounds) }
    try check(table == expected, "table-based \(hex(table))")
    let bitsliced = try attempt { () throws(CryptoError) in
      try AESKDF.transform(key: key, seed: seed, rounds: rounds, implementation: .constantTime)
    }
    try check(bitsliced == expected, "constant-time \(hex(bitsliced))")
  }
}

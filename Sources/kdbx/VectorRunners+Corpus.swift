import KDBX
import KDBXFileIO

// Runners for the vector files that hold facts about the acceptance corpus (`../shared/corpus`, kept outside the
// repository): header fields and key-file keys, read from the corpus files themselves.

extension VectorRunners {
  /// The runner for a corpus-derived file, given the corpus folder; `nil` for files that need more than the corpus
  /// files (the transformed keys need the manifest's credentials, the OTP codes the expected JSON).
  static func corpusRunner(for file: String, corpus: String) -> VectorRunner? {
    switch file {
    case "kdbx/corpus-headers.vec":
      return { record throws(VectorMismatch) in try corpusHeader(record, corpus: corpus) }
    case "kdbx/corpus-keyfiles.vec":
      return { record throws(VectorMismatch) in try corpusKeyFile(record, corpus: corpus) }
    default: return nil
    }
  }

  static func corpusBytes(_ relative: String, corpus: String) throws(VectorMismatch) -> [UInt8] {
    do {
      return try FileIO.readFile(atPath: corpus + "/" + relative, maxByteCount: 64 << 20)
    } catch {
      throw VectorMismatch("cannot read \(relative) in the corpus: \(error)")
    }
  }

  static func corpusHeader(_ record: VectorRecord, corpus: String) throws(VectorMismatch) {
    let bytes = try corpusBytes(try record.string("file"), corpus: corpus)
    let header: OuterHeader
    do {
      header = try KDBXFile.readHeader(bytes: bytes).header
    } catch {
      throw VectorMismatch("header refused: \(error)")
    }
    try check(Int(header.version.major) == record.int("major"), "major \(header.version.major)")
    try check(Int(header.minorVersion) == record.int("minor"), "minor \(header.minorVersion)")
    try check(header.rawBytes.count == record.int("header_length"), "header length \(header.rawBytes.count)")
    try check(header.masterSeed == record.bytes("master_seed"), "master seed")
    try check(header.encryptionIV == record.bytes("iv"), "IV")
    try check(Int(header.compression.rawValue) == record.int("compression"), "compression")
    let ciphers: [String: CipherAlgorithm] = ["aes256": .aes256, "twofish": .twofish, "chacha20": .chaCha20]
    try check(header.cipher == ciphers[try record.string("cipher")], "cipher \(header.cipher)")
    let kdfs: [String: KDFAlgorithm] = [
      "aesKDBX3": .aesKDBX3, "aesKDBX4": .aesKDBX4, "argon2d": .argon2d, "argon2id": .argon2id,
    ]
    try check(header.kdf.algorithm == kdfs[try record.string("kdf")], "KDF \(header.kdf.algorithm)")
    try check(header.kdf.seed == record.bytes("seed"), "KDF seed")
    switch header.kdf {
    case .aesKDF(let aes): try check(Int(aes.rounds) == record.int("rounds"), "rounds \(aes.rounds)")
    case .argon2(let argon):
      try check(Int(argon.iterations) == record.int("iterations"), "iterations \(argon.iterations)")
      try check(Int(argon.memoryBytes) == record.int("memory"), "memory \(argon.memoryBytes)")
      try check(Int(argon.parallelism) == record.int("parallelism"), "parallelism \(argon.parallelism)")
      try check(Int(argon.version) == record.int("argon2_version"), "Argon2 version \(argon.version)")
    }
    if !header.version.isKDBX4 {
      try check(Int(header.innerRandomStream?.rawValue ?? 99) == record.int("inner_stream"), "inner stream")
    }
  }

  static func corpusKeyFile(_ record: VectorRecord, corpus: String) throws(VectorMismatch) {
    if record.has("file") {
      let contents = try corpusBytes(try record.string("file"), corpus: corpus)
      let keyFile = try? KeyFile(contents: contents)
      if record.has("key") {
        guard let keyFile else { throw VectorMismatch("key file refused") }
        try check(keyFile.keyBytes == record.bytes("key"), "key")
        try check("\(keyFile.format)" == record.string("format"), "format \(keyFile.format)")
      } else {
        try check(keyFile == nil, "accepted a key file that must be refused")
      }
    }
    if record.has("composite4") {
      var keyFile: KeyFile? = nil
      if record.has("keyfile") {
        let contents = try corpusBytes(try record.string("keyfile"), corpus: corpus)
        do {
          keyFile = try KeyFile(contents: contents)
        } catch {
          throw VectorMismatch("key file refused: \(error)")
        }
      }
      let password = record.has("password") ? try record.string("password") : nil
      let response = record.has("response") ? try record.bytes("response") : nil
      let key = CompositeKey(password: password, keyFile: keyFile, challengeResponse: response)
      try check(key.compositeKey(for: .v4_0) == record.bytes("composite4"), "composite key")
    }
  }
}

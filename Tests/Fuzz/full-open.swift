// Fuzz target: the whole `KDBXFile.open` path (header, KDF parameters, HMAC or hashed block stream, decryption, gzip,
// KDBX 4 inner header, XML, database reader) with a fixed key, and a save + reopen of whatever opens. The first byte
// picks the mode:
//   mode 0 (low two bits 0 or 3): the rest is a whole KDBX file, opened with the fixtures' password `fixture`. The
//     KDF output is cached per KDF parameter set (a mutated file keeps its KDF parameters almost always), and the
//     limits are tight (4 MiB Argon2 memory, 20,000 AES-KDF rounds), so an execution costs no KDF run;
//   mode 1: the rest is a decrypted KDBX 4 payload (inner header + XML), sealed into a KDBX 4.1 file with a fixed
//     transformed key (bit 2: gzip it; bits 3-4: AES-256, ChaCha20, Twofish) and opened with that key: no KDF, and
//     the authentication layers pass, so the mutations reach the inner header, gzip and XML layers;
//   mode 2: the same for KDBX 3.1 (stream start bytes + hashed block stream, Salsa20 inner stream).
// Property: a file that opens saves (same settings, same key), and the saved file opens again.
import KDBX
import KDBXCrypto
import KDBXXML

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 1 else { return 0 }
  let mode = data[0]
  let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let primitives = CachingPrimitives()
  var random = SplitMix64(seed: UInt64(size))
  let opened: OpenedDatabase
  switch mode & 3 {
  case 1, 2:
    guard let sealed = try? seal(rest, kdbx4: mode & 3 == 1, mode: mode) else { return 0 }
    guard let result = try? KDBXFile.openBlocking(bytes: sealed, key: fixedKey, options: limits) else { return 0 }
    opened = result
  default:
    guard
      let result = try? KDBXFile.open(
        bytes: rest, key: password, primitives: primitives, random: &random, options: limits)
    else { return 0 }
    opened = result
  }
  guard opened.transformedKey.count == 32 else {
    fatalError("open returned a transformed key of \(opened.transformedKey.count) bytes")
  }
  let key = CompositeKey(transformedSecret: opened.transformedKey)
  let saved: [UInt8]
  do {
    saved = try KDBXFile.save(
      opened.database, key: key, settings: SaveSettings(keeping: opened), primitives: primitives, random: &random)
  } catch {
    fatalError("an opened database does not save: \(error)")
  }
  do {
    _ = try KDBXFile.open(bytes: saved, key: key, primitives: primitives, random: &random, options: limits)
  } catch {
    fatalError("a saved database does not open: \(error)")
  }
  return 0
}

let limits = LoadOptions(
  maxKDFMemoryBytes: 4 << 20, maxArgon2Iterations: 8, maxArgon2Parallelism: 8, maxAESKDFRounds: 20_000,
  maxPayloadByteCount: 8 << 20, maxHeaderFieldByteCount: 1 << 20, maxXMLDepth: 64)
let password = CompositeKey(password: "fixture")
let fixedTransformed = [UInt8](repeating: 0x5A, count: 32)
let fixedKey: CompositeKey = {
  guard let key = try? CompositeKey(transformedKey: fixedTransformed) else { fatalError("32-byte key refused") }
  return key
}()

/// Wraps a decrypted payload into a file that `fixedKey` opens: the header, encryption and block layers are right.
func seal(_ payload: [UInt8], kdbx4: Bool, mode: UInt8) throws(KDBXError) -> [UInt8] {
  let standard = StandardPrimitives()
  let cipher: CipherAlgorithm = [.aes256, .chaCha20, .twofish, .aes256][Int((mode >> 3) & 3)]
  let compression: CompressionAlgorithm = mode & 4 != 0 ? .gzip : .none
  let seed = [UInt8](repeating: 0x11, count: 32)
  var header = OuterHeader(
    version: kdbx4 ? .v4_1 : .v3_1, cipher: cipher, compression: compression, masterSeed: seed,
    encryptionIV: [UInt8](repeating: 0x22, count: cipher.ivByteCount),
    kdf: .aesKDF(AESKDFParameters(rounds: 1, seed: seed, uuidVariant: kdbx4 ? .aesKDBX4 : .aesKDBX3)))
  let body = compression == .gzip ? try standard.compressGzip(payload) : payload
  if kdbx4 {
    let headerBytes = try header.serialized()
    let cipherKey = CompositeKey.kdbx4CipherKey(masterSeed: seed, transformedKey: fixedTransformed)
    let ciphertext = try standard.encrypt(body, cipher: cipher, key: cipherKey, iv: header.encryptionIV)
    let authenticator = standard.blockAuthenticator(
      baseKey: standard.sha512(CompositeKey.kdbx4HMACBaseKeyInput(masterSeed: seed, transformedKey: fixedTransformed)))
    return headerBytes + SHA256.hash(headerBytes).bytes
      + HMACBlockStream.headerHMAC(headerBytes, authenticator: authenticator)
      + HMACBlockStream.write(ciphertext, authenticator: authenticator)
  }
  header.protectedStreamKey = [UInt8](repeating: 0x33, count: 32)
  header.streamStartBytes = [UInt8](repeating: 0x44, count: 32)
  header.innerRandomStream = .salsa20
  let headerBytes = try header.serialized()
  let masterKey = fixedKey.kdbx3MasterKey(masterSeed: seed, transformedKey: fixedTransformed)
  let plaintext = [UInt8](repeating: 0x44, count: 32) + HashedBlockStream.write(body)
  return headerBytes + (try standard.encrypt(plaintext, cipher: cipher, key: masterKey, iv: header.encryptionIV))
}

/// The standard primitives with the KDF output cached per parameter set (the composite key is always `password`).
struct CachingPrimitives: KDBXPrimitives {
  let standard = StandardPrimitives()
  nonisolated(unsafe) static var cache: [(KDFParameters, [UInt8])] = []

  func transformKey(_ compositeKey: [UInt8], parameters: KDFParameters) throws(KDBXError) -> [UInt8] {
    if let hit = Self.cache.first(where: { $0.0 == parameters }) { return hit.1 }
    let key = try standard.transformKey(compositeKey, parameters: parameters)
    if Self.cache.count >= 256 { Self.cache.removeFirst() }
    Self.cache.append((parameters, key))
    return key
  }
  func decrypt(_ ciphertext: [UInt8], cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]) throws(KDBXError)
    -> [UInt8]
  { try standard.decrypt(ciphertext, cipher: cipher, key: key, iv: iv) }
  func encrypt(_ plaintext: [UInt8], cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]) throws(KDBXError)
    -> [UInt8]
  { try standard.encrypt(plaintext, cipher: cipher, key: key, iv: iv) }
  func sha512(_ bytes: [UInt8]) -> [UInt8] { standard.sha512(bytes) }
  func blockAuthenticator(baseKey: [UInt8]) -> StandardPrimitives.BlockHMAC {
    standard.blockAuthenticator(baseKey: baseKey)
  }
  func makeInnerStream(_ algorithm: InnerRandomStreamAlgorithm, key: [UInt8], nonce: [UInt8]) throws(KDBXError)
    -> StandardPrimitives.InnerStream
  { try standard.makeInnerStream(algorithm, key: key, nonce: nonce) }
  func compressGzip(_ bytes: [UInt8]) throws(KDBXError) -> [UInt8] { try standard.compressGzip(bytes) }
  func decompressGzip(_ bytes: [UInt8], maxOutputByteCount: Int) throws(KDBXError) -> [UInt8] {
    try standard.decompressGzip(bytes, maxOutputByteCount: maxOutputByteCount)
  }
}

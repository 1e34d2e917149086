import KDBXCrypto

/// The cryptography and compression the KDBX codec needs, gathered in one protocol so that the container logic
/// (``KDBXFile/open(bytes:key:primitives:random:options:xml:)`` and
/// ``KDBXFile/save(_:key:settings:primitives:random:)``) is written and tested once, and the concrete ciphers, KDFs,
/// HMAC and gzip are plugged in by one conformance. `StandardPrimitives` is the conformance over KDBXCrypto and
/// KDBXCompression. The database XML is not here: ``DatabaseXML`` maps it (and a test replaces that mapping with a
/// ``DatabaseXMLOverride``), and ``SavePipeline`` serialises, compresses and checks a save's document.
package protocol KDBXPrimitives: GzipDecompressing {
  /// The inner random stream type (Salsa20 or ChaCha20, or a pass-through for ID 0).
  associatedtype Stream: InnerRandomStream
  /// The KDBX 4 block HMAC computer.
  associatedtype Authenticator: HMACBlockAuthenticator

  /// Runs the KDF on the 32-byte composite key: AES-KDF (`rounds` AES-256-ECB encryptions of each 16-byte half
  /// under `seed`, then SHA-256) or Argon2 with the parameters as given (memory in bytes / 1024 = KiB, 32-byte
  /// output).
  func transformKey(_ compositeKey: [UInt8], parameters: KDFParameters) throws(KDBXError) -> [UInt8]

  /// Decrypts the payload: AES-256-CBC or Twofish-CBC with PKCS#7 padding checked, or ChaCha20 (counter 0).
  func decrypt(_ ciphertext: [UInt8], cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]) throws(KDBXError)
    -> [UInt8]

  /// Encrypts the payload, the inverse of ``decrypt(_:cipher:key:iv:)``.
  func encrypt(_ plaintext: [UInt8], cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]) throws(KDBXError)
    -> [UInt8]

  /// SHA-512 (FIPS 180-4 §6.4) of `bytes`.
  func sha512(_ bytes: [UInt8]) -> [UInt8]

  /// The block authenticator for the 64-byte HMAC base key `SHA-512(masterSeed ‖ transformedKey ‖ 0x01)`.
  func blockAuthenticator(baseKey: [UInt8]) -> Authenticator

  /// The inner random stream for `algorithm`, with the key and nonce already derived by the codec (Salsa20:
  /// `SHA-256(streamKey)` and the fixed nonce `E830094B97205D2A`; ChaCha20: `SHA-512(streamKey)` split 32 + 12).
  /// For ``InnerRandomStreamAlgorithm/none`` return a stream that leaves bytes unchanged.
  func makeInnerStream(_ algorithm: InnerRandomStreamAlgorithm, key: [UInt8], nonce: [UInt8]) throws(KDBXError)
    -> Stream

  /// Compresses the payload as gzip (RFC 1952).
  func compressGzip(_ bytes: [UInt8]) throws(KDBXError) -> [UInt8]

  /// Whether ``compressGzip(_:)`` is KDBXCompression's gzip at level 6, so that a save may compress the document
  /// in pieces with it while it serialises the rest (``SavePipeline``), and with how many cores; `nil`, the default,
  /// compresses the finished document with ``compressGzip(_:)``.
  var pipelinedGzip: SavePipeline.Settings? { get }
}

extension KDBXPrimitives {
  package var pipelinedGzip: SavePipeline.Settings? { nil }

  /// The first `byteCount` plaintext bytes of `ciphertext`, decrypted without the padding check (NIST SP 800-38A
  /// §6.2: CBC block `i` depends only on ciphertext blocks `i - 1` and `i`), or `nil` when the ciphertext is
  /// shorter. KDBX 3.x uses it to tell a wrong key (the stream start bytes differ) from a damaged end (bad
  /// padding). It uses KDBXCrypto's AES, Twofish and ChaCha20.
  package func decryptLeadingBytes(
    _ ciphertext: [UInt8], byteCount: Int, cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]
  ) throws(KDBXError) -> [UInt8]? {
    guard byteCount >= 0, ciphertext.count >= byteCount else { return nil }
    if cipher == .chaCha20 { return try decrypt(Array(ciphertext[0..<byteCount]), cipher: cipher, key: key, iv: iv) }
    let blockCount = (byteCount + 15) / 16
    guard ciphertext.count >= blockCount * 16 else { return nil }
    var blocks = Array(ciphertext[0..<(blockCount * 16)])
    do throws(CryptoError) {
      if cipher == .twofish {
        var cbc = try CBC<Twofish>(key: key, iv: iv)
        try cbc.decrypt(blocksInPlace: &blocks)
      } else {
        var cbc = try CBC<AES>(key: key, iv: iv)
        try cbc.decrypt(blocksInPlace: &blocks)
      }
    } catch {
      throw .crypto(error)
    }
    return Array(blocks[0..<byteCount])
  }
}

/// The Salsa20 nonce KeePass uses for the KDBX 3 inner random stream.
package let kdbxSalsa20InnerStreamNonce: [UInt8] = [0xE8, 0x30, 0x09, 0x4B, 0x97, 0x20, 0x5D, 0x2A]

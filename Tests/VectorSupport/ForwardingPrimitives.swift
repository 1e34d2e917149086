import KDBX

/// Test primitives built on the standard ones, for every test target (`package`, as the primitives protocol): a
/// conforming type keeps them in `base` and implements only what it changes or records (a KDF counter, a log of the
/// plaintexts); the rest is forwarded here.
package protocol ForwardingPrimitives: KDBXPrimitives
where Stream == StandardPrimitives.InnerStream, Authenticator == StandardPrimitives.BlockHMAC {
  var base: StandardPrimitives { get }
}

extension ForwardingPrimitives {
  package func transformKey(_ compositeKey: [UInt8], parameters: KDFParameters) throws(KDBXError) -> [UInt8] {
    try base.transformKey(compositeKey, parameters: parameters)
  }
  package func decrypt(_ ciphertext: [UInt8], cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]) throws(KDBXError)
    -> [UInt8]
  { try base.decrypt(ciphertext, cipher: cipher, key: key, iv: iv) }
  package func encrypt(_ plaintext: [UInt8], cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]) throws(KDBXError)
    -> [UInt8]
  { try base.encrypt(plaintext, cipher: cipher, key: key, iv: iv) }
  package func sha512(_ bytes: [UInt8]) -> [UInt8] { base.sha512(bytes) }
  package func blockAuthenticator(baseKey: [UInt8]) -> StandardPrimitives.BlockHMAC {
    base.blockAuthenticator(baseKey: baseKey)
  }
  package func makeInnerStream(_ algorithm: InnerRandomStreamAlgorithm, key: [UInt8], nonce: [UInt8]) throws(KDBXError)
    -> StandardPrimitives.InnerStream
  { try base.makeInnerStream(algorithm, key: key, nonce: nonce) }
  package func compressGzip(_ bytes: [UInt8]) throws(KDBXError) -> [UInt8] { try base.compressGzip(bytes) }
  package func decompressGzip(_ bytes: [UInt8], maxOutputByteCount: Int) throws(KDBXError) -> [UInt8] {
    try base.decompressGzip(bytes, maxOutputByteCount: maxOutputByteCount)
  }
  package var pipelinedGzip: SavePipeline.Settings? { base.pipelinedGzip }
}

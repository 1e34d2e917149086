import KDBX

/// Stand-ins for the real ciphers, KDF, HMAC and gzip, built from SHA-256 only, so that the container
/// pipeline (open/save, key checks, block streams, inner header, protected values) is tested before the real
/// primitives are wired. They are NOT the KeePass algorithms; interop is tested once the real ones exist.
struct FakePrimitives: KDBXPrimitives {
  struct Stream: InnerRandomStream {
    var key: [UInt8]
    var position = 0
    mutating func apply(to bytes: inout [UInt8]) {
      guard !key.isEmpty else { return }
      for index in 0..<bytes.count {
        bytes[index] ^= key[position % key.count] ^ UInt8(truncatingIfNeeded: position)
        position += 1
      }
    }
  }

  struct Authenticator: HMACBlockAuthenticator {
    var baseKey: [UInt8]
    func authenticationCode(blockIndex: UInt64, message: [UInt8]) -> [UInt8] {
      var prefix = baseKey
      for shift in 0..<8 { prefix.append(UInt8(truncatingIfNeeded: blockIndex >> (shift * 8))) }
      return SHA256Helper.hash(prefix + message)
    }
  }

  var kdfCalls = Counter()

  final class Counter: @unchecked Sendable { var value = 0 }

  func transformKey(_ compositeKey: [UInt8], parameters: KDFParameters) throws(KDBXError) -> [UInt8] {
    kdfCalls.value += 1
    return SHA256Helper.hash(compositeKey + parameters.seed)
  }

  func keystream(_ key: [UInt8], _ iv: [UInt8], _ count: Int) -> [UInt8] {
    var out: [UInt8] = []
    var counter: UInt8 = 0
    while out.count < count {
      out += SHA256Helper.hash(key + iv + [counter])
      counter &+= 1
    }
    return Array(out[0..<count])
  }

  func encrypt(_ plaintext: [UInt8], cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]) throws(KDBXError) -> [UInt8] {
    var data = plaintext
    if cipher != .chaCha20 {
      let pad = 16 - data.count % 16
      data += [UInt8](repeating: UInt8(pad), count: pad)
    }
    let stream = keystream(key, iv, data.count)
    return zip(data, stream).map { $0 ^ $1 }
  }

  func decrypt(_ ciphertext: [UInt8], cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]) throws(KDBXError) -> [UInt8] {
    let stream = keystream(key, iv, ciphertext.count)
    var data = zip(ciphertext, stream).map { $0 ^ $1 }
    if cipher != .chaCha20 {
      guard let pad = data.last, pad >= 1, pad <= 16, Int(pad) <= data.count,
        data.suffix(Int(pad)).allSatisfy({ $0 == pad })
      else { throw .crypto(.invalidPadding) }
      data.removeLast(Int(pad))
    }
    return data
  }

  func sha512(_ bytes: [UInt8]) -> [UInt8] {
    let first = SHA256Helper.hash(bytes)
    return first + SHA256Helper.hash(first)
  }

  func blockAuthenticator(baseKey: [UInt8]) -> Authenticator { Authenticator(baseKey: baseKey) }

  func makeInnerStream(_ algorithm: InnerRandomStreamAlgorithm, key: [UInt8], nonce: [UInt8]) throws(KDBXError)
    -> Stream
  {
    Stream(key: algorithm == .none ? [] : key + nonce)
  }

  func compressGzip(_ bytes: [UInt8]) throws(KDBXError) -> [UInt8] { [0x1F, 0x8B] + bytes }

  func decompressGzip(_ bytes: [UInt8], maxOutputByteCount: Int) throws(KDBXError) -> [UInt8] {
    guard bytes.starts(with: [0x1F, 0x8B]) else { throw .compression(.invalidHeader(offset: 0)) }
    guard bytes.count - 2 <= maxOutputByteCount else {
      throw .compression(.outputLimitExceeded(limit: maxOutputByteCount))
    }
    return Array(bytes[2...])
  }
}

import KDBX
import KDBXXML

/// Stand-ins for the real ciphers, KDF, HMAC, gzip and XML, built from SHA-256 only, so that the container
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

  // A private tree encoding standing in for XML text.
  func serializeXML(_ document: XMLElement) throws(KDBXError) -> [UInt8] {
    var out: [UInt8] = []
    func string(_ text: String) {
      let bytes = Array(text.utf8)
      out += withUnsafeBytes(of: UInt32(bytes.count).littleEndian, Array.init) + bytes
    }
    func encode(_ node: XMLElement) {
      string(node.name)
      out.append(UInt8(node.attributes.count))
      for attribute in node.attributes {
        string(attribute.name)
        string(attribute.value)
      }
      out += withUnsafeBytes(of: UInt32(node.children.count).littleEndian, Array.init)
      for child in node.children {
        switch child {
        case .element(let inner):
          out.append(0)
          encode(inner)
        case .text(let text):
          out.append(1)
          string(text)
        case .comment(let text):
          out.append(2)
          string(text)
        default: break
        }
      }
    }
    encode(document)
    return out
  }

  func parseXML(_ bytes: [UInt8], maxDepth: Int) throws(KDBXError) -> XMLElement {
    var reader = ByteReader(bytes)
    func string() throws(KDBXError) -> String {
      let count = try reader.readUInt32()
      return String(decoding: try reader.readBytes(Int(count)), as: UTF8.self)
    }
    func element(_ depth: Int) throws(KDBXError) -> XMLElement {
      guard depth <= maxDepth else { throw .xml(XMLError(.malformed("depth"), line: 1, column: 1)) }
      var result = XMLElement(name: try string())
      for _ in 0..<(try reader.readUInt8()) {
        result.attributes.append(XMLAttribute(name: try string(), value: try string()))
      }
      for _ in 0..<(try reader.readUInt32()) {
        switch try reader.readUInt8() {
        case 0: result.children.append(.element(try element(depth + 1)))
        case 1: result.children.append(.text(try string()))
        default: result.children.append(.comment(try string()))
        }
      }
      return result
    }
    return try element(1)
  }
}

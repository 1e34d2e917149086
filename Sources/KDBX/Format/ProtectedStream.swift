/// The inner random stream that protects values in the database XML (KDBX 4.1 specification, "Inner Random
/// Stream"): protected values are XORed, in document order, with one continuous key stream. For Salsa20 (ID 2)
/// the key is `SHA-256(streamKey)` and the nonce `E8 30 09 4B 97 20 5D 2A`; for ChaCha20 (ID 3)
/// `SHA-512(streamKey)` gives the key (bytes 0..<32) and nonce (bytes 32..<44).
package protocol InnerRandomStream {
  /// XORs the next `bytes.count` key-stream bytes into `bytes`.
  mutating func apply(to bytes: inout [UInt8])
}

/// The stream for `InnerRandomStreamAlgorithm.none`: leaves bytes unchanged.
package struct PlaintextInnerStream: InnerRandomStream, Sendable {
  package init() {}
  package mutating func apply(to bytes: inout [UInt8]) {}
}

/// Decompresses gzip data, for KDBX 3.1 `Meta/Binaries/Binary` elements written with `Compressed="True"`.
package protocol GzipDecompressing {
  func decompressGzip(_ bytes: [UInt8], maxOutputByteCount: Int) throws(KDBXError) -> [UInt8]
}

/// A decompressor that refuses every input (for documents that need none, and tests).
package struct NoGzipDecompressor: GzipDecompressing, Sendable {
  package init() {}
  package func decompressGzip(_ bytes: [UInt8], maxOutputByteCount: Int) throws(KDBXError) -> [UInt8] {
    throw .malformedValue(element: "Meta/Binaries/Binary", reason: "compressed binary but no gzip decompressor given")
  }
}

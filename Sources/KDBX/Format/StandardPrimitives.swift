import KDBXBase
import KDBXCompression
import KDBXCrypto

/// The real ciphers, KDFs, HMAC and gzip behind ``KDBXFile``: KDBXCrypto and KDBXCompression. Its key derivation
/// is in `StandardPrimitives+KDF.swift` (and `StandardPrimitives+Async.swift`).
///
/// ``KDBXFile/open(bytes:key:options:)`` and ``KDBXFile/save(_:key:settings:)`` use this; tests can substitute
/// other primitives through the generic entry points. Key derivation can report progress and be cancelled
/// through ``progress``: it is called with the fraction done (0...1) and returns `false` to cancel, which makes
/// the open or save throw ``KDBXError/cancelled``.
///
/// With the entry points that take primitives (``KDBXFile/open(bytes:key:primitives:random:options:xml:)``,
/// ``KDBXFile/write(_:key:settings:primitives:random:checksDocument:limits:checksLimits:xml:)``,
/// ``KDBXFile/verifyIntegrity(bytes:key:primitives:options:)``), this is the package interface through which the
/// project's own hosts run the codec where the public API's defaults do not fit: the CLI (its KDF cores and memory
/// cap), `KDBXFileIO` (Argon2 memory it maps itself, ``BlockMemoryProvider``) and the wasm module (one thread, the
/// host's progress, heap memory that may be refused). `.ci/package-interface.txt` lists every package symbol they
/// use with the reason, and `.ci/package-uses.sh --check` keeps it true.
package struct StandardPrimitives: KDBXPrimitives {
  /// Progress of the key derivation, 0...1; return `false` to cancel.
  package var progress: ((Double) -> Bool)?
  /// The most memory an Argon2 derivation may use. ``KDBXFile/open(bytes:key:options:)`` sets it from
  /// `LoadOptions.kdfMemoryCapBytes` (``LoadOptions/maxKDFMemoryBytes``, or the caller's
  /// ``LoadOptions/availableMemoryBytes`` when smaller).
  ///
  /// Without ``argon2BlockMemory`` the library allocates the block memory with the standard library's allocator,
  /// which cannot report failure: a request the system cannot supply stops the process. That happens only when
  /// this cap is larger than the memory the process can get; keep it at or below that figure.
  package var argon2MemoryLimitBytes: Int = 1 << 30
  /// How many Argon2 lanes run at once (RFC 9106 §3.4); `nil` runs as many as the file's parallelism asks for.
  /// The library cannot ask the system for its core count, so a caller that knows it passes it here; one more
  /// than the lanes lets a spare core take the page faults of the first pass.
  package var argon2MaxConcurrency: Int?
  /// How many cores other parallel work may use (the gzip compression of large payloads, in pieces); 1 keeps
  /// it on the calling thread. Default 2.
  package var maxConcurrency = 2
  /// How much serialised XML a save hands to a helper task at a time to compress it while it serialises the rest
  /// (``SavePipeline``). Default 1 MiB.
  package var pipelineChunkByteCount = 1 << 20
  /// Where Argon2's block memory comes from; `nil` lets the library allocate it.
  package var argon2BlockMemory: BlockMemoryProvider?

  /// Block memory that the caller maps itself, for example with `madvise(MADV_HUGEPAGE)` so that the first pass
  /// faults in 2 MiB pages instead of 4 KiB ones. The memory is zeroed before it is released.
  ///
  /// A provider can fail cleanly where the standard library's allocator cannot: when `allocate` returns `nil`, or
  /// `prefault` returns `false`, the key derivation throws
  /// ``KDBXError/insufficientMemory(requiredBytes:availableBytes:)`` and nothing is written to memory the system
  /// refused.
  // SAFETY: the buffers are owned by the provider: Argon2 writes only inside the `byteCount` bytes `allocate`
  // returned (16-byte aligned, so its UInt64 blocks are aligned), stops using them before passing the same buffer
  // back to `release` exactly once, and never lets a pointer outlive the derivation.
  package struct BlockMemoryProvider {
    /// Returns at least the given number of bytes, 16-byte aligned, or `nil` when the memory cannot be had.
    package var allocate: (_ byteCount: Int) -> UnsafeMutableRawBufferPointer?
    /// Gives back what `allocate` returned.
    package var release: (UnsafeMutableRawBufferPointer) -> Void
    /// Maps the pages of a part of that memory ahead of its first write, without changing its contents (see
    /// ``Argon2/MemoryPrefault``), or `nil` to let the first writes fault them in.
    package var prefault: Argon2.MemoryPrefault?

    package init(
      // SAFETY: the closures pass buffers, not pointers into Swift storage; ownership as described on the struct.
      allocate: @escaping (_ byteCount: Int) -> UnsafeMutableRawBufferPointer?,
      release: @escaping (UnsafeMutableRawBufferPointer) -> Void,
      prefault: Argon2.MemoryPrefault? = nil
    ) {
      self.allocate = allocate
      self.release = release
      self.prefault = prefault
    }
  }

  package init(progress: ((Double) -> Bool)? = nil) {
    self.progress = progress
  }

  package func decrypt(_ ciphertext: [UInt8], cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]) throws(KDBXError)
    -> [UInt8]
  {
    do throws(CryptoError) {
      // Large payloads decrypt in pieces on every core (CBC decryption and the ChaCha20 key stream split freely).
      let cores = max(maxConcurrency, 1)
      let piece = Self.minimumCipherPiece
      switch cipher {
      case .aes256:
        return try CBC<AES>.decrypt(
          ciphertext, cipher: AES(key: key), iv: iv, maxConcurrency: cores, minimumPieceByteCount: piece)
      case .twofish:
        return try CBC<Twofish>.decrypt(
          ciphertext, cipher: Twofish(key: key), iv: iv, maxConcurrency: cores, minimumPieceByteCount: piece)
      case .chaCha20:
        var output = ciphertext
        try ChaCha20.applyInPieces(
          to: &output, key: key, nonce: iv, maxConcurrency: cores, minimumPieceByteCount: piece)
        return output
      }
    } catch {
      throw .crypto(error)
    }
  }

  package func encrypt(_ plaintext: [UInt8], cipher: CipherAlgorithm, key: [UInt8], iv: [UInt8]) throws(KDBXError)
    -> [UInt8]
  {
    do throws(CryptoError) {
      switch cipher {
      case .aes256: return try CBC<AES>.encrypt(plaintext, key: key, iv: iv)
      case .twofish: return try CBC<Twofish>.encrypt(plaintext, key: key, iv: iv)
      case .chaCha20: return try chaCha20(plaintext, key: key, nonce: iv)
      }
    } catch {
      throw .crypto(error)
    }
  }

  /// The KDBX 4 payload cipher ChaCha20 (RFC 8439, counter 0): XOR with the key stream, so it both encrypts and
  /// decrypts.
  private func chaCha20(_ bytes: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
    var output = bytes
    var stream = try ChaCha20(key: key, nonce: nonce, counter: 0)
    try stream.apply(to: &output)
    return output
  }

  package func sha512(_ bytes: [UInt8]) -> [UInt8] {
    SHA512.hash(bytes).bytes
  }

  package func blockAuthenticator(baseKey: [UInt8]) -> BlockHMAC {
    BlockHMAC(baseKey: baseKey)
  }

  package func makeInnerStream(_ algorithm: InnerRandomStreamAlgorithm, key: [UInt8], nonce: [UInt8]) throws(KDBXError)
    -> InnerStream
  {
    if algorithm == .arcFourVariant { throw .unsupportedInnerRandomStream(id: algorithm.rawValue) }
    do throws(CryptoError) {
      switch algorithm {
      case .none, .arcFourVariant: return .plaintext
      case .salsa20: return .salsa20(try Salsa20(key: key, nonce: nonce))
      case .chaCha20: return .chaCha20(try ChaCha20(key: key, nonce: nonce, counter: 0))
      }
    } catch {
      throw .crypto(error)
    }
  }

  package func compressGzip(_ bytes: [UInt8]) throws(KDBXError) -> [UInt8] {
    ParallelGzip.compress(bytes, maxConcurrency: maxConcurrency)
  }

  /// KDBXCompression's gzip: a save compresses in pieces while it serialises, with ``maxConcurrency`` cores and
  /// hand-offs of ``pipelineChunkByteCount`` bytes.
  package var pipelinedGzip: SavePipeline.Settings? {
    SavePipeline.Settings(maxConcurrency: maxConcurrency, chunkByteCount: pipelineChunkByteCount)
  }

  /// Payloads smaller than twice this are decrypted in one piece (about 2 ms of AES-CBC on one core).
  static let minimumCipherPiece = 1 << 19

  package func decompressGzip(_ bytes: [UInt8], maxOutputByteCount: Int) throws(KDBXError) -> [UInt8] {
    do throws(CompressionError) {
      return try Gzip.decompress(bytes, maxOutputByteCount: maxOutputByteCount)
    } catch {
      throw .compression(error)
    }
  }

  /// The KDBX 4 block HMAC: HMAC-SHA-256 keyed with `SHA-512(UInt64LE(index) ‖ baseKey)` (KDBX 4 specification).
  package struct BlockHMAC: HMACBlockAuthenticator {
    let baseKey: [UInt8]

    package func authenticationCode(blockIndex: UInt64, message: [UInt8]) -> [UInt8] {
      var keyInput: [UInt8] = []
      keyInput.reserveCapacity(8 + baseKey.count)
      for shift in stride(from: 0, to: 64, by: 8) {
        keyInput.append(UInt8(truncatingIfNeeded: blockIndex >> UInt64(shift)))
      }
      keyInput.append(contentsOf: baseKey)
      let blockKey = SHA512.hash(keyInput).bytes
      return HMAC<SHA256>.authenticationCode(for: message, key: blockKey).bytes
    }
  }

  /// The inner random stream (KDBX 3: Salsa20; KDBX 4: ChaCha20), or none.
  package enum InnerStream: InnerRandomStream {
    case plaintext
    case salsa20(Salsa20)
    case chaCha20(ChaCha20)

    package mutating func apply(to bytes: inout [UInt8]) {
      switch self {
      case .plaintext: return
      case .salsa20(var stream):
        stream.apply(to: &bytes)
        self = .salsa20(stream)
      case .chaCha20(var stream):
        // The 32-bit block counter covers 256 GiB of protected values, far beyond any database; should it ever
        // overflow, the remaining bytes are left unchanged and the XML reader reports the value as malformed.
        do { try stream.apply(to: &bytes) } catch { return }
        self = .chaCha20(stream)
      }
    }
  }
}

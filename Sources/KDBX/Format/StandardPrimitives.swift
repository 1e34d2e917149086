import KDBXBase
import KDBXCompression
import KDBXCrypto
import KDBXXML

/// The real ciphers, KDFs, HMAC, gzip and XML behind ``KDBXFile``: KDBXCrypto, KDBXCompression and KDBXXML.
///
/// ``KDBXFile/open(bytes:key:options:)`` and ``KDBXFile/save(_:key:settings:)`` use this; tests can substitute
/// other primitives through the generic entry points. Key derivation can report progress and be cancelled
/// through ``progress``: it is called with the fraction done (0...1) and returns `false` to cancel, which makes
/// the open or save throw ``KDBXError/cancelled``.
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
  /// (``serializeAndCompressGzip(_:version:stream:prefix:alongside:)``). Default 1 MiB.
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

  package func transformKey(_ compositeKey: [UInt8], parameters: KDFParameters) throws(KDBXError) -> [UInt8] {
    do throws(CryptoError) {
      let run = try kdfRun(parameters)
      defer { run.release() }
      let report = progress
      switch run.algorithm {
      case .aesKDF(let seed, let rounds):
        return try AESKDF.transform(key: compositeKey, seed: seed, rounds: rounds) { done, total in
          guard let report, total > 0 else { return true }
          return report(Double(done) / Double(total))
        }
      case .argon2(let argon, let salt):
        let handler = Self.argon2Progress(report)
        // SAFETY: `run.memory` is the provider's buffer, valid until `run.release()` (deferred above).
        guard let memory = run.memory else {
          return try Argon2.deriveKey(
            password: compositeKey, salt: salt, parameters: argon, memoryLimitBytes: argon2MemoryLimitBytes,
            maxConcurrency: run.workers, progress: handler)
        }
        return try Argon2.deriveKey(
          password: compositeKey, salt: salt, parameters: argon, memory: memory, maxConcurrency: run.workers,
          prefault: run.provider?.prefault, progress: handler)
      }
    } catch {
      throw Self.kdfError(error)
    }
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
    let pieces = min(max(maxConcurrency, 1), bytes.count / Self.minimumCompressionPiece)
    guard pieces > 1 else { return Gzip.compress(bytes, level: Self.compressionLevel) }
    let streams = ParallelWork.map(count: pieces, maxConcurrency: pieces) { index in
      Self.compressPiece(index, of: pieces, bytes)
    }
    return Self.gzipMember(streams, of: bytes)
  }

  /// Serialises `database` and compresses `prefix` and the document as gzip, compressing on a helper task what is
  /// serialised (in hand-offs of ``pipelineChunkByteCount`` bytes, each piece using the 32 KiB before it as its
  /// dictionary) while the calling thread serialises the rest; then `job` runs on the finished document alongside
  /// the compression of what is left, on every core. The same gzip format; with one core,
  /// the serialisation, the compression and the job run one after another.
  package func serializeAndCompressGzip<S: InnerRandomStream, T: Sendable>(
    _ database: Database, version: KDBXVersion, stream: inout S, prefix: [UInt8],
    alongside job: @escaping @Sendable ([UInt8]) -> T
  ) throws(KDBXError) -> (document: [UInt8], compressed: [UInt8], jobResult: T) {
    let cores = max(maxConcurrency, 1)
    guard cores > 1 else {
      let document = try serializeDatabase(database, version: version, stream: &stream)
      let compressed = Gzip.compress(prefix.isEmpty ? document : prefix + document, level: Self.compressionLevel)
      return (document, compressed, job(document))
    }
    // One helper compresses while the calling thread serialises (so that both have a core): at each hand-off,
    // once the helper's previous piece has finished, it takes the oldest piece waiting. When a second piece would
    // wait (serialising outruns DEFLATE), the calling thread compresses the oldest one itself: both cores stay busy
    // and at most one hand-off copy waits, instead of most of the document (the AutoFill extension's peak memory,
    // issue #35). What is left at the end is compressed on every core, alongside the job.
    var pending: [(bytes: [UInt8], start: Int)] = prefix.isEmpty ? [] : [(prefix, 0)]
    var nextPending = 0
    var handOffs: [HandOff] = []
    /// The hand-off on the helper, and its place in `handOffs`.
    var helper: (work: StartedWork<[UInt8]>, index: Int)? = nil
    func takeOldest() -> (bytes: [UInt8], start: Int) {
      let piece = pending[nextPending]
      pending[nextPending].bytes = []  // the compression holds the only copy
      nextPending += 1
      return piece
    }
    func startPending() {
      if let (work, index) = helper, work.isFinished {
        // Its stream replaces it: the work holds the piece it compressed until it is released.
        handOffs[index] = .compressed(work.result())
        helper = nil
      }
      guard nextPending < pending.count, helper == nil else { return }
      let piece = takeOldest()
      let work = ParallelWork.start { Self.compressHandOff(piece) }
      helper = (work, handOffs.count)
      handOffs.append(.started(work))
    }
    startPending()
    let serialized: (document: [UInt8], handedOff: Int)
    do throws(XMLError) {
      serialized = try DatabaseXMLWriter.serialize(
        database, version: version, stream: &stream, options: Self.xmlOptions,
        chunkByteCount: pipelineChunkByteCount
      ) { bytes, newBytesStart in
        pending.append((bytes, newBytesStart))
        startPending()
        while pending.count - nextPending > 1 { handOffs.append(.compressed(Self.compressHandOff(takeOldest()))) }
      }
    } catch {
      throw .xml(error)
    }
    let document = serialized.document
    let rest = serialized.handedOff..<document.count
    let pieces = max(min(2 * cores, rest.count / Self.minimumCompressionPiece), 1)
    let waiting = Array(pending[nextPending...])
    let items = ParallelWork.map(count: 2 + waiting.count + pieces, maxConcurrency: cores) {
      index -> CompressionItem<T> in
      if index == 0 { return .job(job(document)) }
      if index == 1 {
        var checksum = CRC32()
        checksum.update(prefix)
        checksum.update(document)
        return .checksum(checksum.value)
      }
      // Items 2... are the waiting pieces, then the pieces of the rest.
      let position = index - 2
      if position < waiting.count { return .stream(Self.compressHandOff(waiting[position])) }
      return .stream(Self.compressPiece(position - waiting.count, of: pieces, document, from: rest.lowerBound))
    }
    // The hand-offs' streams first, in order (one still waiting is compressed here), then the rest.
    var streams = handOffs.map { piece in
      switch piece {
      case .started(let work): work.result()
      case .compressed(let stream): stream
      }
    }
    var result: T? = nil
    var checksum: UInt32? = nil
    for item in items {
      switch item {
      case .job(let value): result = value
      case .checksum(let value): checksum = value
      case .stream(let stream): streams.append(stream)
      }
    }
    guard let result, let checksum else { preconditionFailure("ParallelWork.map returns one result per item") }
    let compressed = Gzip.member(
      deflatePieces: streams, checksum: checksum, byteCount: prefix.count + document.count,
      level: Self.compressionLevel)
    return (document, compressed, result)
  }

  /// A hand-off of ``serializeAndCompressGzip(_:version:stream:prefix:alongside:)``'s pipeline: compressing on the
  /// helper, or compressed on the calling thread.
  private enum HandOff {
    case started(StartedWork<[UInt8]>)
    case compressed([UInt8])
  }

  /// One result of ``serializeAndCompressGzip(_:version:stream:prefix:alongside:)``'s work items.
  private enum CompressionItem<T: Sendable>: Sendable {
    case job(T)
    case stream([UInt8])
    case checksum(UInt32)
  }

  /// The DEFLATE stream of piece `index` of `count` equal pieces of `bytes[start...]`, using the 32 KiB before it
  /// as its dictionary (RFC 1951 allows any block boundaries): joined, the pieces are one stream, about 0.1% larger
  /// than in one piece; the last one ends the stream.
  private static func compressPiece(_ index: Int, of count: Int, _ bytes: [UInt8], from start: Int = 0) -> [UInt8] {
    let pieceSize = (bytes.count - start + count - 1) / count
    let lower = min(start + index * pieceSize, bytes.count)
    let upper = min(lower + pieceSize, bytes.count)
    return Deflate.compress(bytes, piece: lower..<upper, level: compressionLevel, isFinal: upper == bytes.count)
  }

  /// The DEFLATE stream of a hand-off of the pipeline: its new bytes, after the window before them (never final).
  private static func compressHandOff(_ piece: (bytes: [UInt8], start: Int)) -> [UInt8] {
    Deflate.compress(piece.bytes, piece: piece.start..<piece.bytes.count, level: compressionLevel, isFinal: false)
  }

  /// The gzip member (RFC 1952) of the joined piece `streams` of `bytes`.
  private static func gzipMember(_ streams: [[UInt8]], of bytes: [UInt8]) -> [UInt8] {
    Gzip.member(
      deflatePieces: streams, checksum: CRC32.checksum(bytes), byteCount: bytes.count,
      level: compressionLevel)
  }

  /// Payloads smaller than twice this are decrypted in one piece (about 2 ms of AES-CBC on one core).
  static let minimumCipherPiece = 1 << 19

  /// The DEFLATE level of saved payloads: 6, zlib's default, which KeePass and KeePassXC use too.
  static let compressionLevel = 6
  /// Payloads smaller than twice this are compressed in one piece.
  static let minimumCompressionPiece = 1 << 20

  package func decompressGzip(_ bytes: [UInt8], maxOutputByteCount: Int) throws(KDBXError) -> [UInt8] {
    do throws(CompressionError) {
      return try Gzip.decompress(bytes, maxOutputByteCount: maxOutputByteCount)
    } catch {
      throw .compression(error)
    }
  }

  package func parseXML(_ bytes: [UInt8], maxDepth: Int) throws(KDBXError) -> XMLElement {
    var options = XMLReader.Options()
    options.limits.maximumDepth = maxDepth
    do throws(XMLError) {
      return try XMLElement.parse(bytes, options: options)
    } catch {
      throw .xml(error)
    }
  }

  /// Reads the model straight from the pull reader's events, without building the tree.
  package func readDatabase<S: InnerRandomStream, R: RandomNumberGenerator>(
    xml: [UInt8], binaries: [InnerHeader.Binary], stream: inout S, random: inout R, options: LoadOptions
  ) throws(KDBXError) -> Database {
    try DatabaseXMLReader.read(
      xml: xml, binaries: binaries, stream: &stream, random: &random, gzip: self, options: options)
  }

  /// KeePass drops characters XML 1.0 cannot carry rather than refusing to save.
  static let xmlOptions = XMLWriter.Options(invalidCharacters: .strip)

  package func serializeXML(_ document: XMLElement) throws(KDBXError) -> [UInt8] {
    do throws(XMLError) {
      return try XMLWriter.write(document, options: Self.xmlOptions)
    } catch {
      throw .xml(error)
    }
  }

  /// Streams the database XML from the model (``DatabaseXMLWriter/serialize(_:version:stream:options:)``): the
  /// bytes of the default, without the intermediate tree.
  package func serializeDatabase<S: InnerRandomStream>(_ database: Database, version: KDBXVersion, stream: inout S)
    throws(KDBXError) -> [UInt8]
  {
    do throws(XMLError) {
      return try DatabaseXMLWriter.serialize(database, version: version, stream: &stream, options: Self.xmlOptions)
    } catch {
      throw .xml(error)
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

extension StandardPrimitives {
  /// A key derivation as a file's KDF parameters ask for it, resolved in one place for the synchronous
  /// ``transformKey(_:parameters:)`` and the `async` `transformKey(_:parameters:progress:)`, which differ only in
  /// how they run it.
  struct KDFRun {
    enum Algorithm {
      /// AES-KDF: `rounds` AES-256 encryptions of each half of the key under `seed`.
      case aesKDF(seed: [UInt8], rounds: UInt64)
      /// Argon2 with a 32-byte tag (``StandardPrimitives/argon2Parameters(_:)``) and the file's salt.
      case argon2(Argon2.Parameters, salt: [UInt8])
    }
    var algorithm: Algorithm
    /// Argon2 lanes run at once: ``StandardPrimitives/argon2MaxConcurrency``, else the file's parallelism.
    var workers = 1
    /// Argon2's block memory from ``StandardPrimitives/argon2BlockMemory``, with the provider it goes back to;
    /// `nil` lets Argon2 allocate it within ``StandardPrimitives/argon2MemoryLimitBytes``.
    // SAFETY: the buffer the provider's `allocate` returned, handed back once by `release()` after the run.
    var memory: UnsafeMutableRawBufferPointer? = nil
    var provider: BlockMemoryProvider? = nil

    /// Gives ``memory`` back to its provider; call once, after the run.
    func release() {
      if let memory, let provider { provider.release(memory) }
    }
  }

  /// The run for `parameters`: the parameter mapping, the worker count and, with ``argon2BlockMemory``, the block
  /// memory, allocated only once the run is known to fit ``argon2MemoryLimitBytes``.
  func kdfRun(_ parameters: KDFParameters) throws(CryptoError) -> KDFRun {
    switch parameters {
    case .aesKDF(let aes):
      return KDFRun(algorithm: .aesKDF(seed: aes.seed, rounds: aes.rounds))
    case .argon2(let argon):
      let argonParameters = try Self.argon2Parameters(argon)
      var run = KDFRun(algorithm: .argon2(argonParameters, salt: argon.salt))
      run.workers = max(argon2MaxConcurrency ?? argonParameters.lanes, 1)
      guard let provider = argon2BlockMemory else { return run }
      let byteCount = Argon2.estimate(parameters: argonParameters).memoryByteCount
      guard byteCount <= argon2MemoryLimitBytes else {
        throw CryptoError.memoryLimitExceeded(requiredBytes: byteCount, limitBytes: argon2MemoryLimitBytes)
      }
      guard let memory = provider.allocate(byteCount) else {
        throw CryptoError.memoryUnavailable(requiredBytes: byteCount)
      }
      run.memory = memory
      run.provider = provider
      return run
    }
  }

  /// Argon2's progress handler for a fraction handler (after each slice; `false` cancels).
  static func argon2Progress(_ report: ((Double) -> Bool)?) -> Argon2.ProgressHandler? {
    report.map { report in
      { (step: Argon2.Progress) -> Bool in report(Double(step.completedSlices) / Double(max(step.totalSlices, 1))) }
    }
  }

  /// The error of a key derivation that failed: memory the system refused, a cancellation, or the KDF's error.
  static func kdfError(_ error: CryptoError) -> KDBXError {
    switch error {
    case .memoryUnavailable(let required):
      return .insufficientMemory(requiredBytes: UInt64(clamping: required), availableBytes: nil)
    case .cancelled: return .cancelled
    default: return .crypto(error)
    }
  }

  /// The Argon2 parameters of a KDBX 4 KDF dictionary (for ``kdfRun(_:)``): a 32-byte tag (the transformed key),
  /// variant d or id, version 0x10 or 0x13.
  static func argon2Parameters(_ argon: Argon2KDFParameters) throws(CryptoError) -> Argon2.Parameters {
    guard argon.memoryBytes / 1024 <= UInt64(Int32.max), argon.iterations <= UInt64(UInt32.max) else {
      throw CryptoError.invalidParameter(name: "m", reason: "Argon2 parameters out of range")
    }
    return try Argon2.Parameters(
      variant: argon.variant == .d ? .d : .id, version: argon.version == 0x10 ? .v0x10 : .v0x13,
      iterations: Int(argon.iterations), memoryKiB: Int(argon.memoryBytes / 1024), lanes: Int(argon.parallelism),
      outputLength: 32, secret: argon.secretKey ?? [], associatedData: argon.associatedData ?? [])
  }
}

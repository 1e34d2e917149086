/// Ceilings applied while reading a file, so that a hostile file cannot make the reader allocate or compute without
/// bound. The defaults are far above anything KeePass or KeePassXC let a user configure for a real vault; lower
/// them where resources are tight (for example 64 MiB of KDF memory in an AutoFill extension).
///
/// Every limit is checked before the allocation or the work it guards: header and inner-header field lengths
/// before the field is read, KDF costs when the header is parsed (before the KDF runs), block sizes before a block
/// is copied, the gzip output while it is inflated, and the XML depth and node count while the document is read. A
/// file over a limit throws ``KDBXError/limitExceeded(what:value:limit:)`` (``KDBXError/compression(_:)`` with
/// `outputLimitExceeded` for gzip, ``KDBXError/xml(_:)`` with a depth limit for XML, and
/// ``KDBXError/insufficientMemory(requiredBytes:availableBytes:)`` for KDF memory over ``availableMemoryBytes``).
///
/// KDF costs are capped twice: each parameter on its own (memory, iterations, lanes, rounds), and the work as a
/// whole (`maxArgon2WorkBytes`, and `maxAESKDFRounds` for AES-KDF), because small memory with a huge number of
/// iterations takes as long as huge memory. A caller that can time the KDF (the `kdbx` tool's `--max-kdf-seconds`)
/// raises or lowers the work caps from a measurement; progress reports and cancellation work as usual inside them.
///
/// An AutoFill extension reads what it shows, within its memory budget:
///
/// ```swift
/// var options = LoadOptions.default
/// options.availableMemoryBytes = 50_000_000
/// options.loadsAttachmentContents = false  // names and sizes only
/// options.loadsHistory = false
/// let opened = try await KDBXFile.open(bytes: fileBytes, key: key, options: options)
/// ```
public struct LoadOptions: Sendable, Equatable {
  /// Largest Argon2 memory accepted, in bytes. Default 4 GiB (KeePassXC's default is 64 MiB, KeePass 2's 1 MiB).
  package var maxKDFMemoryBytes: UInt64
  /// Most Argon2 iterations accepted. Default 1,000,000 (KeePass 2 writes 2; KeePassXC calibrates to about one
  /// second, typically tens of iterations).
  package var maxArgon2Iterations: UInt64
  /// Most Argon2 lanes accepted. Default 256 (KeePass 2 writes 2; KeePassXC the number of CPU cores).
  package var maxArgon2Parallelism: UInt32
  /// Most Argon2 work accepted: memory in bytes times iterations, the bytes of blocks the passes fill. Default
  /// 128 GiB.
  ///
  /// Why 128 GiB: the longest decryption time KeePassXC offers is 5 s (its slider, at 64 MiB and 2 lanes). The
  /// fastest desktop cores fill an Argon2 block in about 0.3 µs (about 3 GiB/s per lane), so 5 s is at most about
  /// 30 GiB of work with 2 lanes; memory bandwidth (about 25 GiB/s on a fast desktop) bounds any number of lanes to
  /// about 125 GiB in 5 s. A vault calibrated to 5 s on a slow phone is far below either, and so are KeePass 2's
  /// default (1 MiB x 2) and KeePassXC's (64 MiB, iterations for 1 s). 128 GiB also covers 1 GiB with 128
  /// iterations and 4 GiB (`maxKDFMemoryBytes`) with 32. It refuses 1 MiB with a million iterations (976 GiB of
  /// work) and 4 GiB with 1,000. Measured on a shared 2-core virtual machine, release build: 128 GiB (64 MiB x
  /// 2,049) takes about 2 minutes, 1 MiB x 1,000,000 about 4-5 minutes; a slow phone is several times slower.
  package var maxArgon2WorkBytes: UInt64
  /// Most AES-KDF rounds accepted: the AES-KDF work cap. Default 500,000,000.
  ///
  /// Why: 5 s (KeePassXC's longest decryption time; five times KeePass 2's "1 second delay") on a core running
  /// 100 million rounds per second, above what one serial AES-NI chain per key half reaches at 5 GHz (about 90
  /// million). Real vaults hold thousands to tens of millions of rounds. KeePassX let users type up to 999,999,999,
  /// which takes 2-6 minutes with this library's table-based AES on a shared 2-core virtual machine (3-7 million
  /// rounds per second, depending on the load); 500 million take half that.
  package var maxAESKDFRounds: UInt64
  /// Largest decompressed (or unhashed) payload accepted, in bytes; also the largest single binary. Default 1 GiB
  /// (real vaults are kilobytes to tens of megabytes, attachments included).
  package var maxPayloadByteCount: Int
  /// Largest single outer- or inner-header field accepted, in bytes (inner-header binaries fall under
  /// `maxPayloadByteCount` instead). Default 16 MiB (real header fields are at most a few hundred bytes).
  package var maxHeaderFieldByteCount: Int
  /// Deepest XML element nesting accepted. Default 512 (an entry in a group nested 20 deep is about 30 levels
  /// down). Group trees are capped at this less 16 levels (496 by default, the root group counting as 1): the
  /// open refuses a deeper document, imports refuse deeper input, and a save refuses a deeper database, so that
  /// every file the library writes opens again.
  package var maxXMLDepth: Int
  /// Most XML nodes (elements, text runs, CDATA sections, comments, processing instructions) accepted in the
  /// database document. Default 16,777,216: `large_5000` (5,000 entries and 1,000 history items, 8 MB of XML),
  /// the corpus file with the most, has 351,749, so the default is 47 times that. Together with the bound on what
  /// the model may hold (three times the document's size plus 16 MiB, see `DatabaseXMLReader`), it bounds the
  /// work and memory of a hostile document: millions of tiny elements are refused before they are all read.
  package var maxXMLNodeCount: Int
  /// The memory the caller can give the key derivation, in bytes, or `nil` (the default) when it does not know.
  ///
  /// The library uses only the Swift standard library and cannot ask the system; a caller that can (the `kdbx` tool
  /// reads `MemAvailable` from `/proc/meminfo`, the cgroup memory limit and `RLIMIT_AS`) passes it here. An Argon2
  /// file that needs more is refused when the header is read, before anything is allocated, with
  /// ``KDBXError/insufficientMemory(requiredBytes:availableBytes:)``, and the memory cap of the derivation itself is
  /// the smaller of this and `maxKDFMemoryBytes`. Without it, a file within `maxKDFMemoryBytes` whose memory the
  /// system cannot supply makes the standard library's allocator stop the process: the library's allocating
  /// Argon2 path traps only when it is given a cap larger than the memory there is.
  public var availableMemoryBytes: UInt64?
  /// Whether attachment contents are kept (default `true`). An AutoFill extension that only matches and fills
  /// turns it off: each binary is then kept as a placeholder with its size and SHA-256
  /// (see ``Database/byteCount(of:)`` and ``Database/isLoaded(_:)``), and a save of that database is refused
  /// (``KDBXError/incompleteDatabase(reason:)``), so that nothing is dropped.
  public var loadsAttachmentContents: Bool = true
  /// Whether entry histories are kept (default `true`). Off, every `History` is read (the inner random stream
  /// must pass over its protected values) but not kept: ``Entry/history`` is `nil`, and a save is refused.
  public var loadsHistory: Bool = true

  package init(
    maxKDFMemoryBytes: UInt64 = 4 << 30, maxArgon2Iterations: UInt64 = 1_000_000, maxArgon2Parallelism: UInt32 = 256,
    maxAESKDFRounds: UInt64 = 500_000_000, maxPayloadByteCount: Int = 1 << 30,
    maxHeaderFieldByteCount: Int = 16 << 20, maxXMLDepth: Int = 512, maxXMLNodeCount: Int = 16 << 20,
    maxArgon2WorkBytes: UInt64 = 128 << 30, availableMemoryBytes: UInt64? = nil
  ) {
    self.maxKDFMemoryBytes = maxKDFMemoryBytes
    self.maxArgon2Iterations = maxArgon2Iterations
    self.maxArgon2Parallelism = maxArgon2Parallelism
    self.maxAESKDFRounds = maxAESKDFRounds
    self.maxPayloadByteCount = maxPayloadByteCount
    self.maxHeaderFieldByteCount = maxHeaderFieldByteCount
    self.maxXMLDepth = maxXMLDepth
    self.maxXMLNodeCount = maxXMLNodeCount
    self.maxArgon2WorkBytes = maxArgon2WorkBytes
    self.availableMemoryBytes = availableMemoryBytes
  }

  /// The most memory an Argon2 derivation may allocate under these options: `maxKDFMemoryBytes`, or
  /// ``availableMemoryBytes`` when that is smaller.
  package var kdfMemoryCapBytes: UInt64 {
    guard let availableMemoryBytes else { return maxKDFMemoryBytes }
    return min(maxKDFMemoryBytes, availableMemoryBytes)
  }

  /// Deepest group nesting accepted, the root group counting as 1: `maxXMLDepth` less 16 (496 by default), so
  /// that an entry with its history, fields and custom data, and a few levels of unknown XML kept below it, fit
  /// in `maxXMLDepth` at any group. One cap for every way a group tree is made: the open refuses a deeper
  /// document, KeePass 1.x and other imports refuse deeper input, and a save refuses a deeper database (one built
  /// through the API) before it writes anything, so that no walk over a tree the library made or accepted goes
  /// deeper.
  package var maxGroupDepth: Int { max(1, maxXMLDepth - 16) }

  /// The defaults described on each property.
  public static let `default` = LoadOptions()
}

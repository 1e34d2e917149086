// KDBX benchmarks on ../shared/corpus/generated/large_5000.kdbx (5,000 entries, 1,000 history items, 100
// attachments, about 6 MB of XML, Argon2 cut to 1 MiB; password "bench"). Registered in main.swift through
// `kdbxBenchmarks()`. Skipped, with a note, when the corpus is not beside the repository.
import KDBX
import KDBXCompression
import KDBXCrypto
import KDBXFileIO
import KDBXXML

/// The corpus file, found beside the repository (from this source file's path; one level further up from a
/// worktree in `wt/NAME`, as the tests look) or in the working directory.
func largeVaultBytes() -> [UInt8]? {
  var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(3)
  let repository = parts.joined(separator: "/")
  for path in [
    repository + "/../shared/corpus/generated/large_5000.kdbx",
    repository + "/../../shared/corpus/generated/large_5000.kdbx", "../shared/corpus/generated/large_5000.kdbx",
  ] {
    if let bytes = try? FileIO.readFile(atPath: path) { return bytes }
  }
  return nil
}

func kdbxBenchmarks() -> [Benchmark] {
  let key = CompositeKey(password: "bench")

  /// Opens the vault once for a benchmark's inputs; a missing corpus makes the body a no-op with a note.
  func prepared() -> (bytes: [UInt8], opened: OpenedDatabase)? {
    guard let bytes = largeVaultBytes() else {
      print("note: ../shared/corpus/generated/large_5000.kdbx not found; KDBX benchmarks measure nothing")
      return nil
    }
    guard let opened = try? KDBXFile.openBlocking(bytes: bytes, key: key) else {
      print("note: large_5000.kdbx did not open")
      return nil
    }
    return (bytes, opened)
  }

  return [
    Benchmark(name: "kdbx-open-large5000", unit: .millisecondsPerIteration, runs: 5) {
      let input = prepared()
      return { iterations in
        guard let input else { return }
        for _ in 0..<iterations { blackHole(try? KDBXFile.openBlocking(bytes: input.bytes, key: key)) }
      }
    },
    Benchmark(name: "kdbx-open-large5000-cached-key", unit: .millisecondsPerIteration, runs: 5) {
      let input = prepared()
      let cached = input.map { CompositeKey(transformedSecret: $0.opened.transformedKey) }
      return { iterations in
        guard let input, let cached else { return }
        for _ in 0..<iterations { blackHole(try? KDBXFile.openBlocking(bytes: input.bytes, key: cached)) }
      }
    },
    Benchmark(name: "kdbx-save-large5000", unit: .millisecondsPerIteration, runs: 5) {
      let input = prepared()
      return { iterations in
        guard let input else { return }
        let settings = SaveSettings(keeping: input.opened)
        for _ in 0..<iterations {
          blackHole(try? KDBXFile.saveBlocking(input.opened.database, key: key, settings: settings))
        }
      }
    },
    // The check every save runs on its document while the payload compresses: the open's model reader, dropping
    // each entry once read (issue 39), and the structure-only scan `kdbx verify` runs.
    Benchmark(name: "kdbx-stage-save-check-large5000", unit: .millisecondsPerIteration, runs: 5) {
      let input = prepared()
      let xml = input.map { largeVaultXML($0.opened) } ?? []
      let binaries = (input?.opened.database.binaries.binaries ?? []).map {
        InnerHeader.Binary(isProtected: $0.isProtected, data: $0.data)
      }
      return { iterations in
        guard input != nil else { return }
        for _ in 0..<iterations {
          blackHole(
            try? KDBXFile.checkOpens(xml: xml, binaries: binaries, options: .default))
        }
      }
    },
    Benchmark(name: "kdbx-stage-document-scan-large5000", unit: .millisecondsPerIteration, runs: 5) {
      let xml = prepared().map { largeVaultXML($0.opened) } ?? []
      return { iterations in
        for _ in 0..<iterations { blackHole(try? KDBXFile.checkDocument(xml, options: .default)) }
      }
    },
    // The database XML serialization alone (model to bytes, as a save does before gzip).
    Benchmark(name: "kdbx-stage-xml-write-large5000", unit: .millisecondsPerIteration, runs: 5) {
      let input = prepared()
      return { iterations in
        guard let input else { return }
        let version = input.opened.header.version
        for _ in 0..<iterations {
          var stream = PlaintextInnerStream()
          blackHole(
            try? DatabaseXML.serialize(input.opened.database, version: version, stream: &stream))
        }
      }
    },
    Benchmark(name: "kdbx-stage-xml-parse-large5000", unit: .millisecondsPerIteration, runs: 5) {
      let xml = prepared().map { largeVaultXML($0.opened) } ?? []
      return { iterations in
        for _ in 0..<iterations { blackHole(try? XMLElement.parse(xml)) }
      }
    },
    Benchmark(name: "kdbx-stage-model-read-large5000", unit: .millisecondsPerIteration, runs: 5) {
      let input = prepared()
      let tree = input.flatMap { try? XMLElement.parse(largeVaultXML($0.opened)) }
      // KDBX 4 keeps attachments in the inner header; hand them over as the codec does.
      let binaries = (input?.opened.database.binaries.binaries ?? []).map {
        InnerHeader.Binary(isProtected: $0.isProtected, data: $0.data)
      }
      return { iterations in
        guard let tree else { return }
        for _ in 0..<iterations {
          var stream = PlaintextInnerStream()
          var random = BenchRandom()
          blackHole(
            try? DatabaseXMLReader.read(
              document: tree, binaries: binaries, stream: &stream, random: &random, gzip: NoGzipDecompressor()))
        }
      }
    },
    // The open path's XML stage: the model built straight from the pull reader's events (no tree), issue #22.
    Benchmark(name: "kdbx-stage-xml-model-large5000", unit: .millisecondsPerIteration, runs: 5) {
      let input = prepared()
      let xml = input.map { largeVaultXML($0.opened) } ?? []
      let binaries = (input?.opened.database.binaries.binaries ?? []).map {
        InnerHeader.Binary(isProtected: $0.isProtected, data: $0.data)
      }
      return { iterations in
        guard input != nil else { return }
        for _ in 0..<iterations {
          var stream = PlaintextInnerStream()
          var random = BenchRandom()
          blackHole(
            try? DatabaseXMLReader.read(
              xml: xml, binaries: binaries, stream: &stream, random: &random, gzip: NoGzipDecompressor()))
        }
      }
    },
    // The container stages, on a payload of the file's size (the work does not depend on the key): the HMAC-SHA-256
    // of the blocks (KDBX 4 HMAC block stream) and the AES-256-CBC decryption.
    Benchmark(name: "kdbx-stage-hmac-blocks-large5000", unit: .millisecondsPerIteration, runs: 5) {
      var random = BenchRandom()
      let payload = random.bytes(largeVaultBytes()?.count ?? 0)
      let key = random.bytes(64)
      return { iterations in
        for _ in 0..<iterations {
          var offset = 0
          while offset < payload.count {
            let end = min(offset + (1 << 20), payload.count)
            blackHole(HMAC<SHA256>.authenticationCode(for: Array(payload[offset..<end]), key: key))
            offset = end
          }
        }
      }
    },
    Benchmark(name: "kdbx-stage-decrypt-large5000", unit: .millisecondsPerIteration, runs: 5) {
      var random = BenchRandom()
      let key = random.bytes(32)
      let iv = random.bytes(16)
      let ciphertext = (try? CBC<AES>.encrypt(random.bytes(largeVaultBytes()?.count ?? 0), key: key, iv: iv)) ?? []
      return { iterations in
        for _ in 0..<iterations { blackHole(try? CBC<AES>.decrypt(ciphertext, key: key, iv: iv)) }
      }
    },
    Benchmark(name: "kdbx-stage-gunzip-large5000", unit: .millisecondsPerIteration, runs: 5) {
      let compressed = Gzip.compress(prepared().map { largeVaultXML($0.opened) } ?? [])
      return { iterations in
        for _ in 0..<iterations { blackHole(try? Gzip.decompress(compressed)) }
      }
    },
  ]
}

/// The vault's inner XML with protected values in the clear (as written without an inner stream).
func largeVaultXML(_ opened: OpenedDatabase) -> [UInt8] {
  var stream = PlaintextInnerStream()
  let tree = DatabaseXMLWriter.write(opened.database, version: opened.header.version, stream: &stream)
  return (try? XMLWriter.write(tree)) ?? []
}

extension BenchRandom: RandomNumberGenerator {}

/// large_5000.kdbx's inner XML (protected values in the clear), built once per process; empty when the corpus is
/// missing or does not open. The DEFLATE benchmarks on a real vault's document use it.
nonisolated(unsafe) private var cachedLargeVaultDocument: [UInt8]? = nil
func largeVaultDocument() -> [UInt8] {
  if let document = cachedLargeVaultDocument { return document }
  var document: [UInt8] = []
  if let bytes = largeVaultBytes(),
    let opened = try? KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "bench"))
  {
    document = largeVaultXML(opened)
  }
  cachedLargeVaultDocument = document
  return document
}

// Opening flat vaults of 5,000, 20,000 and 80,000 entries (issue #38 item 5: the cost per 1,000 entries stays
// linear), and the open's XML stage with and without the event pipeline's helper (issue #36 item 5, the A/B of
// `XMLEventPipeline`). Registered in main.swift through `flatVaultBenchmarks()`.
import KDBX
import KDBXXML

/// A KDBX 4 vault of `count` entries in the root group, each with a title, user name, protected password, URL and
/// notes, saved with Argon2id at 1 MiB (the KDF is not what these benchmarks measure).
func flatVaultBytes(entries count: Int) -> [UInt8] {
  var random = BenchRandom()
  let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
  var database = Database.new(name: "flat", clock: clock, random: &random)
  guard let root = database.root?.uuid else { return [] }
  for index in 0..<count {
    var entry = Entry.new(clock: clock, random: &random)
    entry[field: Entry.titleField] = .plain("Entry \(index)")
    entry[field: Entry.userNameField] = .plain("user\(index)@example.com")
    entry[field: Entry.passwordField] = .protected(ProtectedValue("password-\(index)-\(random.next() % 1_000_000)"))
    entry[field: Entry.urlField] = .plain("https://site\(index % 997).example.com/login")
    entry[field: Entry.notesField] = .plain("Notes for entry \(index).")
    _ = database.addEntry(entry, to: root)
  }
  let kdf = KDFParameters.argon2(
    Argon2KDFParameters(
      variant: .id, iterations: 1, memoryBytes: 1 << 20, parallelism: 1, salt: [UInt8](repeating: 0, count: 32)))
  return
    (try? KDBXFile.saveBlocking(
      database, key: CompositeKey(password: "bench"), settings: SaveSettings(version: .v4_1, kdf: kdf))) ?? []
}

func flatVaultBenchmarks() -> [Benchmark] {
  var benchmarks = [5_000, 20_000, 80_000].map { count in
    Benchmark(name: "kdbx-open-flat\(count)", unit: .millisecondsPerIteration, runs: 5) {
      let bytes = flatVaultBytes(entries: count)
      let key = CompositeKey(password: "bench")
      return { iterations in
        for _ in 0..<iterations { blackHole(try? KDBXFile.openBlocking(bytes: bytes, key: key)) }
      }
    }
  }
  // The open's XML stage (model built from the pull reader's events) on large_5000's document, with the reader
  // on a helper a few batches ahead (what the open does) and on the calling thread alone.
  for (name, pipeline) in [("pipelined", XMLEventPipelineSettings.standard), ("sequential", .sequential)] {
    benchmarks.append(
      Benchmark(name: "kdbx-stage-xml-model-large5000-\(name)", unit: .millisecondsPerIteration, runs: 9) {
        let opened = largeVaultBytes().flatMap {
          try? KDBXFile.openBlocking(bytes: $0, key: CompositeKey(password: "bench"))
        }
        let xml = opened.map(largeVaultXML) ?? []
        let binaries = (opened?.database.binaries.binaries ?? []).map {
          InnerHeader.Binary(isProtected: $0.isProtected, data: $0.data)
        }
        var check = PlaintextInnerStream()
        var checkRandom = BenchRandom()
        if !xml.isEmpty,
          (try? DatabaseXMLReader.read(
            xml: xml, binaries: binaries, stream: &check, random: &checkRandom, gzip: NoGzipDecompressor(),
            pipeline: pipeline)) == nil
        {
          print("note: large_5000's document did not read")
        }
        return { iterations in
          guard !xml.isEmpty else { return }
          for _ in 0..<iterations {
            var stream = PlaintextInnerStream()
            var random = BenchRandom()
            blackHole(
              try? DatabaseXMLReader.read(
                xml: xml, binaries: binaries, stream: &stream, random: &random, gzip: NoGzipDecompressor(),
                pipeline: pipeline))
          }
        }
      })
  }
  // The open's decryption of a payload of large_5000's size (AES-256-CBC), in pieces on two cores and on one
  // (issue #36 item 5's A/B of decryption in pieces).
  for cores in [2, 1] {
    benchmarks.append(
      Benchmark(name: "kdbx-stage-decrypt-large5000-cores\(cores)", unit: .millisecondsPerIteration, runs: 9) {
        var random = BenchRandom()
        let key = random.bytes(32)
        let iv = random.bytes(16)
        var primitives = StandardPrimitives()
        primitives.maxConcurrency = cores
        let plaintext = random.bytes(largeVaultBytes()?.count ?? 0)
        let ciphertext = (try? primitives.encrypt(plaintext, cipher: .aes256, key: key, iv: iv)) ?? []
        return { iterations in
          for _ in 0..<iterations {
            blackHole(try? primitives.decrypt(ciphertext, cipher: .aes256, key: key, iv: iv))
          }
        }
      })
  }
  return benchmarks
}

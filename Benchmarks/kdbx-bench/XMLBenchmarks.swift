import KDBXXML

// XML benchmarks. Registered in main.swift through `xmlBenchmarks()`.
// All run on `benchmarkDocument()`, the 50 MB KeePass-like document.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

func xmlBenchmarks() -> [Benchmark] {
  return [
    Benchmark(name: "xml-reader-events", unit: .mebibytesPerSecond(bytesPerIteration: benchmarkDocumentSize), runs: 5) {
      let document = benchmarkDocument()
      return { iterations in
        for _ in 0..<iterations { blackHole(readEvents(document)) }
      }
    },
    Benchmark(name: "xml-tree-build", unit: .mebibytesPerSecond(bytesPerIteration: benchmarkDocumentSize), runs: 5) {
      let document = benchmarkDocument()
      reportTreeMemory(document)
      return { iterations in
        for _ in 0..<iterations { blackHole(try? XMLElement.parse(document)) }
      }
    },
    Benchmark(name: "xml-writer-tabs", unit: .mebibytesPerSecond(bytesPerIteration: benchmarkDocumentSize), runs: 5) {
      let tree = parsedBenchmarkTree()
      return { iterations in
        for _ in 0..<iterations { blackHole(try? XMLWriter.write(tree)) }
      }
    },
    Benchmark(name: "xml-writer-compact", unit: .mebibytesPerSecond(bytesPerIteration: benchmarkDocumentSize), runs: 5)
    {
      let tree = parsedBenchmarkTree()
      let options = XMLWriter.Options(indentation: .none)
      return { iterations in
        for _ in 0..<iterations { blackHole(try? XMLWriter.write(tree, options: options)) }
      }
    },
  ]
}

/// The document's size, used as the bytes per iteration of every XML benchmark (also for the writer, whose
/// tab-indented output has about the same size as the input).
private var benchmarkDocumentSize: Int { benchmarkDocument().count }

private func parsedBenchmarkTree() -> XMLElement {
  guard let tree = try? XMLElement.parse(benchmarkDocument()) else { fatalError("benchmark document must parse") }
  return tree
}

/// Reads every event and touches every decoded name and text, as a consumer would.
/// Reads every event as the library's own scans do (inside `withBorrowedInput`, the reader's fast path).
private func readEvents(_ document: [UInt8]) -> Int {
  var reader = XMLReader(bytes: document)
  var checksum = 0
  reader.withBorrowedInput { reader in
    while let event = try? reader.next() {
      switch event {
      case .startElement(let name, let attributes):
        checksum &+= name.utf8.count &+ attributes.count
      case .endElement(let name): checksum &+= name.utf8.count
      case .text(let text), .cdata(let text), .comment(let text): checksum &+= text.utf8.count
      case .processingInstruction(let target, _): checksum &+= target.utf8.count
      }
    }
  }
  return checksum
}

/// Measures the memory the tree of the document holds (the growth of the resident set, from /proc/self/statm,
/// while the tree is built and kept) and prints it to standard error, so that the table on standard output keeps
/// its format.
private func reportTreeMemory(_ document: [UInt8]) {
  #if os(Linux)
    let before = residentBytes()
    let tree = try? XMLElement.parse(document)
    let used = residentBytes() - before
    withExtendedLifetime(tree) {}
    let ratio = Double(used) / Double(document.count)
    let line =
      "xml-tree-memory\tresident set grew by \(used) B for a \(document.count) B document = \(format(ratio))x\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
  #endif
}

#if os(Linux)
  /// The resident set size in bytes (second field of /proc/self/statm, in pages).
  private func residentBytes() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 128)
    guard fgets(&buffer, 128, file) != nil else { return 0 }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
#endif

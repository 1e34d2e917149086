import Foundation
import KDBXXML
import Testing
import VectorSupport

// Interop with Python's xml.etree (expat) and lxml (libxml2), through Vectors/tools/xml_interop.py.
// Documents written by them must read the same with us; documents we write must read the same with them.
// Skipped, with a recorded note, when python3 or lxml is missing.

private let script = Vectors.root + "/tools/xml_interop.py"

private func run(_ arguments: [String]) -> (status: Int32, output: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = ["python3"] + arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  process.standardError = FileHandle.nullDevice
  do { try process.run() } catch { return (-1, "") }
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

private let hasPython = run(["-c", "import xml.etree.ElementTree"]).status == 0
private let hasLXML = run(["-c", "import lxml.etree"]).status == 0

private func temporaryPath(_ name: String) -> String {
  NSTemporaryDirectory() + "kdbxxml-interop-\(getpid())-\(name)"
}

/// Our reading of a document in the script's dump format.
private func ourDump(_ bytes: [UInt8]) throws -> String {
  var reader = XMLReader(bytes: bytes, options: XMLReader.Options(keepsWhitespaceText: true))
  var lines: [String] = []
  var pending = ""
  func flush() {
    if !pending.isEmpty { lines.append("T " + TestHex.string(pending.utf8)) }
    pending = ""
  }
  while let event = try reader.next() {
    let inside = reader.depth > 0
    switch event {
    case .startElement(let name, let attributes):
      flush()
      lines.append("S " + name)
      for attribute in attributes { lines.append("A " + attribute.name + " " + TestHex.string(attribute.value.utf8)) }
    case .endElement:
      flush()
      lines.append("E")
    case .text(let text), .cdata(let text):
      if inside { pending += text }
    case .comment(let text):
      if inside {
        flush()
        lines.append("C " + TestHex.string(text.utf8))
      }
    case .processingInstruction(let target, let data):
      if inside {
        flush()
        lines.append("P " + TestHex.string((data.isEmpty ? target : target + " " + data).utf8))
      }
    }
  }
  flush()
  return lines.joined(separator: "\n") + "\n"
}

private func checkPythonWritten(writer: String, seed: Int) throws {
  let path = temporaryPath("\(writer)-\(seed).xml")
  defer { try? FileManager.default.removeItem(atPath: path) }
  #expect(run([script, writer, path, String(seed)]).status == 0)
  let bytes = try #require(Vectors.readFile(atPath: path))
  let theirs = run([script, "dump", hasLXML ? "lxml" : "etree", path])
  #expect(theirs.status == 0)
  #expect(try ourDump(bytes) == theirs.output, "\(writer) seed \(seed)")
}

@Test(
  .enabled(if: EndToEnd.isEnabled, EndToEnd.skipReason),
  .enabled(if: hasPython, "python3 missing: xml.etree interop skipped"))
func readsDocumentsWrittenByPythonEtree() throws {
  for seed in 1...5 { try checkPythonWritten(writer: "write-etree", seed: seed) }
}

@Test(
  .enabled(if: EndToEnd.isEnabled, EndToEnd.skipReason),
  .enabled(if: hasPython && hasLXML, "python3 lxml missing: lxml interop skipped"))
func readsDocumentsWrittenByLXML() throws {
  for seed in 1...5 { try checkPythonWritten(writer: "write-lxml", seed: seed) }
}

@Test(
  .enabled(if: EndToEnd.isEnabled, EndToEnd.skipReason), .enabled(if: hasPython, "python3 missing: interop skipped"))
func pythonReadsDocumentsWeWrite() throws {
  // Documents from lxml (or etree) have every tricky character; we read them into a tree, write the tree (compact,
  // so no white space is added) and both Python parsers must read what we read.
  let writer = hasLXML ? "write-lxml" : "write-etree"
  for seed in 6...9 {
    let source = temporaryPath("source-\(seed).xml")
    let ours = temporaryPath("ours-\(seed).xml")
    defer {
      try? FileManager.default.removeItem(atPath: source)
      try? FileManager.default.removeItem(atPath: ours)
    }
    #expect(run([script, writer, source, String(seed)]).status == 0)
    let bytes = try #require(Vectors.readFile(atPath: source))
    let tree = try XMLElement.parse(bytes, options: XMLReader.Options(keepsWhitespaceText: true))
    let written = try XMLWriter.write(tree, options: XMLWriter.Options(indentation: .none))
    _ = FileManager.default.createFile(atPath: ours, contents: Data(written))
    let expected = try ourDump(written)
    #expect(expected == (try ourDump(bytes)))
    for parser in hasLXML ? ["etree", "lxml"] : ["etree"] {
      let theirs = run([script, "dump", parser, ours])
      #expect(theirs.status == 0)
      #expect(theirs.output == expected, "\(parser) seed \(seed)")
    }
  }
}

@Test(
  .enabled(if: EndToEnd.isEnabled, EndToEnd.skipReason),
  .enabled(if: hasPython && hasLXML, "python3 lxml missing: differential well-formedness test skipped"))
func acceptsExactlyWhatLXMLAccepts() throws {
  // Mutated documents (insertions of markup fragments, bad UTF-8, deletions, truncations): we must accept a
  // document exactly when lxml does. No DOCTYPE fragments are inserted, since we refuse those by design.
  let seed = Array(
    ("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!--c--><KeePassFile a='1' b=\"&amp;&#x41;\">\n\t<Meta><G>K&lt;P</G>"
      + "<X/><![CDATA[x]]y]]><?pi d?></Meta>\r\n<V P=\"True\">é日😀</V></KeePassFile>\n<!--e-->").utf8)
  let pieces: [[UInt8]] =
    ["<", ">", "&", ";", "]]>", "<!--", "-->", "<![CDATA[", "<?", "?>", "</", "/>", "=", "'", "\"", "&#", "&#x", "\r"]
    .map { Array($0.utf8) } + [[0x00], [0x01], [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xEF, 0xBF, 0xBE], [0xE2]]
  var random = SplitMix64(seed: 2024)
  var paths: [String] = []
  var ours: [String] = []
  defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
  for index in 0..<400 {
    var document = seed
    for _ in 0..<(1 + Int(random.next() % 2)) {
      let at = Int(random.next() % UInt64(document.count + 1))
      switch random.next() % 4 {
      case 0: document.insert(contentsOf: pieces[Int(random.next() % UInt64(pieces.count))], at: at)
      case 1: if at < document.count { document.remove(at: at) }
      case 2: if at < document.count { document[at] = UInt8(truncatingIfNeeded: random.next()) }
      default: document = Array(document[..<at])
      }
    }
    let path = temporaryPath("mutated-\(index).xml")
    _ = FileManager.default.createFile(atPath: path, contents: Data(document))
    paths.append(path)
    ours.append(readError(document) == nil ? "1" : "0")
  }
  let theirs = run([script, "wellformed"] + paths)
  #expect(theirs.status == 0)
  let verdicts = theirs.output.split(separator: "\n").map(String.init)
  #expect(verdicts.count == ours.count)
  #expect(ours.contains("1") && ours.contains("0"))
  for (index, (mine, lxml)) in zip(ours, verdicts).enumerated() where mine != lxml {
    Issue.record("mutated document \(index): ours \(mine), lxml \(lxml)")
  }
}

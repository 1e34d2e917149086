import KDBXXML
import Testing
import VectorSupport

/// One test case per ill-formed document in Vectors/xml/xml10-invalid.vec (one or more per error class).
@Test(arguments: Vectors.records("xml/xml10-invalid.vec"))
func xml10Invalid(_ record: VectorRecord) {
  var limits = XMLReader.Limits()
  if record.has("max_depth") { limits.maximumDepth = record.int("max_depth") }
  if record.has("max_attributes") { limits.maximumAttributeCount = record.int("max_attributes") }
  if record.has("max_name") { limits.maximumNameLength = record.int("max_name") }
  if record.has("max_token") { limits.maximumTokenLength = record.int("max_token") }
  let options = XMLReader.Options(allowsDoctype: record.has("allow_doctype"), limits: limits)
  let error = readError(record.bytes("document"), options: options)
  #expect(error != nil, "document must be rejected")
  guard let error else { return }
  #expect(error.kind.caseName == record.string("kind"), "\(error)")
  #expect(error.line == record.int("line"), "\(error)")
  #expect(error.column == record.int("column"), "\(error)")
  // A reader that discards text reports the same error.
  var discarding = XMLReader(bytes: record.bytes("document"), options: options)
  discarding.discardsText = true
  do {
    while try discarding.next() != nil {}
    Issue.record("a reader discarding text accepted an ill-formed document")
  } catch {
    #expect(error.kind.caseName == record.string("kind") && error.line == record.int("line"))
  }
  // The tree builder reports the same error.
  do {
    _ = try XMLElement.parse(record.bytes("document"), options: options)
    Issue.record("tree builder accepted an ill-formed document")
  } catch {
    #expect(error.kind.caseName == record.string("kind") && error.line == record.int("line"))
  }
}

@Test func errorsCarryDetails() {
  #expect(readError(Array("<a><b></c></a>".utf8))?.kind == .mismatchedTag(expected: "b", found: "c"))
  #expect(readError(Array("<a x='1' x='2'/>".utf8))?.kind == .duplicateAttribute("x"))
  #expect(readError(Array("<a>&foo;</a>".utf8))?.kind == .undefinedEntity("foo"))
  #expect(readError(Array("<a>\u{7}</a>".utf8))?.kind == .invalidCharacter(7))
  #expect(readError(Array("<a><b>".utf8))?.kind == .unclosedTag("b"))
  let error = XMLError(.missingRoot, line: 3, column: 7)
  #expect(error.description == "XML error at line 3, column 7: no root element")
}

@Test func readerRepeatsItsErrorAfterFailing() {
  var reader = XMLReader(bytes: Array("<a></b>".utf8))
  #expect(throws: XMLError.self) { while try reader.next() != nil {} }
  #expect(throws: XMLError.self) { _ = try reader.next() }
}

@Test func everyTruncationOfAValidDocumentFails() throws {
  let document = Array("<?xml version=\"1.0\"?><a x=\"1&amp;\"><!--c--><b>t&#x20AC;<![CDATA[d]]></b><?p q?></a>".utf8)
  _ = try XMLElement.parse(document)
  for length in 0..<document.count - 4 {
    #expect(readError(Array(document[..<length])) != nil, "prefix of \(length) bytes")
  }
}

@Test func randomByteFlipsNeverTrap() {
  let document = keePassLikeDocument(targetBytes: 4000)
  var random = SplitMix64(seed: 42)
  for _ in 0..<300 {
    var mutated = document
    for _ in 0..<3 {
      let index = Int(random.next() % UInt64(mutated.count))
      mutated[index] = UInt8(truncatingIfNeeded: random.next())
    }
    _ = readError(mutated)  // Must return, with or without an error: never trap.
  }
}

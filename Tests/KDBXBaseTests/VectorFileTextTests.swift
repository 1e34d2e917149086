import KDBXBase
import Testing

/// The `.vec` parser that `kdbx selftest --vectors` and the test support target share (Vectors/README.md).
@Suite("Vector file text")
struct VectorFileTextTests {
  @Test func recordsSplitAtBlankLinesWithTheirStartLines() {
    let text = "# a comment\nkey = 00ff\n  msg = \"abc\" \r\n\n\ncount = 3\nno equals sign\n# another\nout=\"\"\n"
    let records = VectorFileText.parse(text)
    #expect(records.map(\.line) == [2, 6])
    #expect(records.first?.fields.map(\.name) == ["key", "msg"])
    #expect(records.first?.fields.map(\.value) == ["00ff", "\"abc\""])
    #expect(records.last?.fields.map(\.name) == ["count", "out"])
    #expect(VectorFileText.parse("\n# only comments\n\n").isEmpty)
  }

  @Test func valuesDecodeAsHexOrQuotedStrings() {
    #expect(VectorFileText.bytes("00ffA0") == .success([0x00, 0xFF, 0xA0]))
    #expect(VectorFileText.bytes("\"a\\n\\t\\\\\\\"\\x7f\"") == .success([0x61, 0x0A, 0x09, 0x5C, 0x22, 0x7F]))
    #expect(VectorFileText.bytes("0") == .failure(.badHex))
    #expect(VectorFileText.bytes("zz") == .failure(.badHex))
    #expect(VectorFileText.bytes("\"bad \\q escape\"") == .failure(.badString))
    #expect(VectorFileText.bytes("\"no closing quote") == .failure(.badString))
    #expect(VectorFileText.bytes("\"cut \\x7\"") == .failure(.badString))
    #expect(VectorFileText.string("\"é\\n\"") == "é\n")
    #expect(VectorFileText.string("plain text") == "plain text")
    #expect(VectorFileText.string("\"trailing \\\"") == nil)
  }
}

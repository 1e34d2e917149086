import KDBXXML
import Testing

@Test func xmlErrorsNameLineAndColumn() {
  let error = XMLError(.malformed("x"), line: 3, column: 7)
  #expect(error.description.contains("line 3, column 7"))
}

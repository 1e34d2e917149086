// What the examples in KDBXXML's doc comments take as given. Type-checked with them by .ci/doc-snippets.py, never
// run.
import KDBXXML

var document: [UInt8] { fatalError() }
func handle(_ event: XMLEvent) {}
var root: XMLElement { fatalError() }

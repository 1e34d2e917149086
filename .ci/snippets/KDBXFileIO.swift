// What the examples in KDBXFileIO's doc comments take as given. Type-checked with them by .ci/doc-snippets.py,
// never run.
import KDBX
import KDBXFileIO

var key: CompositeKey { fatalError() }
/// The new file's bytes, from `KDBXFile.save`.
var newBytes: [UInt8] { fatalError() }

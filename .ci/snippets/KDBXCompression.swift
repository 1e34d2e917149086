// What the examples in KDBXCompression's doc comments take as given. Type-checked with them by
// .ci/doc-snippets.py, never run.
import KDBXCompression

var bytes: [UInt8] { fatalError() }
var compressed: [UInt8] { fatalError() }
var part1: [UInt8] { fatalError() }
var part2: [UInt8] { fatalError() }

// What the examples in KDBXFoundation's doc comments take as given. Type-checked with them by
// .ci/doc-snippets.py, never run.
import Foundation
import KDBX
import KDBXFoundation

var documentURL: URL { fatalError() }
var key: CompositeKey { fatalError() }

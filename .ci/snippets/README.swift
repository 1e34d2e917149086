// What README.md's examples take as given: the names the app has where each example sits, with their types.
// Type-checked with them by .ci/doc-snippets.py, never run.
import KDBX
import KDBXFileIO

var fileBytes: [UInt8] { fatalError() }
var path: String { fatalError() }
var key: CompositeKey { fatalError() }
var entryID: KDBXUUID { fatalError() }
var unixTime: Int64 { fatalError() }
var clock: SystemClock { fatalError() }
/// The view model's progress bar (the first example runs on the main actor).
@MainActor var unlockProgress: Double {
  get { fatalError() }
  set {}
}
func log(_ message: String) {}

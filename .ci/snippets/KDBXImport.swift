// What the examples in KDBXImport's doc comments take as given. Type-checked with them by .ci/doc-snippets.py,
// never run.
import KDBXImport

/// The bytes of another manager's export (Bitwarden JSON, 1Password .1pux, CSV, KeePass XML).
var exportBytes: [UInt8] { fatalError() }

// What the examples in KDBXPasskeys' doc comments take as given. Type-checked with them by .ci/doc-snippets.py,
// never run.
import KDBX
import KDBXPasskeys

var clock: FixedClock { fatalError() }
/// The relying party's challenge, from its `PublicKeyCredentialRequestOptions`.
var challenge: [UInt8] { fatalError() }

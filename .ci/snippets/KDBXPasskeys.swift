// What the examples in KDBXPasskeys' doc comments take as given. Type-checked with them by .ci/doc-snippets.py,
// never run.
import KDBX
import KDBXPasskeys

var clock: FixedClock { fatalError() }
/// The relying party's challenge, from its `PublicKeyCredentialRequestOptions`.
var challenge: [UInt8] { fatalError() }
var database: Database {
  get { fatalError() }
  set {}
}
var groupUUID: KDBXUUID { fatalError() }
/// The relying party's user handle (`user.id`).
var handle: [UInt8] { fatalError() }
var random: SystemRandomNumberGenerator {
  get { fatalError() }
  set {}
}

import KDBX
import Testing

/// Code examples from the doc comments and the DocC articles, compiled and run against the public API alone
/// (`import KDBX`, no `@testable`; `.ci/api-check.sh` also type-checks this file outside the package), so that an
/// example cannot stop compiling unnoticed.
@Suite("Documentation examples")
struct DocExampleTests {
  /// The example in `OneTimePassword`'s doc comment, with RFC 6238 appendix B's SHA-1 vector at T = 59 s.
  @Test func oneTimePasswordDocComment() throws {
    let secret = Array("12345678901234567890".utf8)  // RFC 6238 appendix B's SHA-1 secret
    let generator = try OneTimePassword(secret: secret, encoding: .decimal(digits: 8), kind: .totp(period: 30))
    let code = generator.code(at: 59)  // "94287082"
    let remaining = generator.secondsRemaining(at: 59)  // 1: the code changes in one second
    #expect(code == "94287082")
    #expect(remaining == 1)
  }
}

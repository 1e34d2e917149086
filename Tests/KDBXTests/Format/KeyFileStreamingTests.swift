import KDBXCrypto
import Testing

@testable import KDBX

/// ``KeyFile/isCertainlyHashedForm(byteCount:prefix:)`` and ``KeyFile/init(sha256OfContents:)``: what lets a
/// caller hash a large key file in a stream and still get the key ``KeyFile/init(contents:)`` would give.
@Suite struct KeyFileStreamingTests {
  static func hashed(_ text: String, byteCount: Int? = nil) -> Bool {
    let prefix = Array(text.utf8)
    return KeyFile.isCertainlyHashedForm(byteCount: byteCount ?? prefix.count + 1_000_000, prefix: prefix)
  }

  @Test func contentThatCannotBeAnXMLKeyFileIsHashed() {
    #expect(Self.hashed("\u{7F}ELF binary"))
    #expect(Self.hashed("plain text"))
    #expect(Self.hashed("  \n\t plain after whitespace"))
    #expect(Self.hashed("\u{FEFF}not xml"))  // UTF-8 BOM, then text
    #expect(Self.hashed("<html><body>"))
    #expect(Self.hashed("<?xml version=\"1.0\"?>\n<!-- a comment -->\n<svg xmlns=\"x\">"))
    #expect(Self.hashed("<KeyFiles>"))
    #expect(Self.hashed("<KeyFile2/>"))
  }

  @Test func contentThatMightBeAnXMLKeyFileIsNotDecided() {
    #expect(!Self.hashed("<KeyFile>"))
    #expect(!Self.hashed("<?xml version=\"1.0\"?>\n<KeyFile>"))
    #expect(!Self.hashed("<kf:KeyFile xmlns:kf=\"x\">"))
    #expect(!Self.hashed("<?xml version=\"1.0\""))  // the prefix ends inside the declaration
    #expect(!Self.hashed("<!-- a comment that goes on"))
    #expect(!Self.hashed("<!DOCTYPE KeyFile>"))
    #expect(!Self.hashed("<Key"))  // the name may go on past the prefix
    #expect(!Self.hashed("    "))  // only whitespace so far
    // Sizes of the 32-byte and 64-hex forms are never decided from a prefix.
    #expect(!KeyFile.isCertainlyHashedForm(byteCount: 32, prefix: Array("abc".utf8)))
    #expect(!KeyFile.isCertainlyHashedForm(byteCount: 64, prefix: Array("abc".utf8)))
  }

  @Test func theWholeContentDecidesWhenThePrefixIsAllOfIt() {
    #expect(KeyFile.isCertainlyHashedForm(byteCount: 4, prefix: Array("    ".utf8)))
  }

  @Test func aPrecomputedDigestGivesTheSameKeyAsTheContent() throws {
    let contents = [UInt8]((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    let streamed = try KeyFile(sha256OfContents: SHA256.hash(contents).bytes)
    #expect(streamed == (try KeyFile(contents: contents)))
    #expect(streamed.format == .hashed)
    #expect(throws: KDBXError.self) { try KeyFile(sha256OfContents: [1, 2, 3]) }
  }
}

import KDBX
import Testing
import VectorSupport

/// Negative tests on real files: every truncation of the header region and a flipped byte at every header offset
/// must give a typed error or a (different) successful parse, never a trap.
@Suite struct CorpusFuzzTests {
  static let files = [
    "keepass-rs/test_db_few_rounds.kdbx", "generated/sample_kdbx31_aes_aeskdf.kdbx",
    "generated/sample_kdbx41_chacha20_argon2id.kdbx", "keepassxc/Format200.kdbx",
  ]

  @Test(.enabled(if: Corpus.isAvailable), arguments: files) func headerMutations(_ name: String) throws {
    let bytes = try #require(Corpus.file(name))
    let block = try KDBXFile.readHeader(bytes: bytes)
    let end = min(bytes.count, block.payloadOffset + 8)
    var failures = 0
    for offset in 0..<end {
      if offset < block.payloadOffset {
        do {
          _ = try KDBXFile.readHeader(bytes: Array(bytes[0..<offset]))
          Issue.record("truncation at \(offset) of \(name) parsed")
        } catch {
          failures += 1
        }
      }
      var flipped = bytes
      flipped[offset] ^= 0x80
      _ = try? KDBXFile.readHeader(bytes: flipped)
    }
    #expect(failures == block.payloadOffset)
    // The signature and version bytes are checked exactly.
    var badSignature = bytes
    badSignature[0] ^= 1
    #expect(throws: KDBXError.notKeePassFile) { try KDBXFile.readHeader(bytes: badSignature) }
  }
}

import KDBXCompression
import Testing
import VectorSupport

/// `Inflate.verify` and `Gzip.verifyMember`: a stream is accepted against exactly the bytes it decodes to (split
/// anywhere between the two expected parts), and refused against any other bytes, without decoding a copy.
@Suite("Inflate verification")
struct InflateVerifyTests {
  static let levelRecords = Vectors.records("deflate/rfc1951-zlib-levels.vec")

  /// Streams from our encoder at every level (stored, fixed and dynamic blocks, long and overlapping matches) and
  /// zlib's (`rfc1951-zlib-levels.vec`), with what they decode to.
  static func streams() throws -> [(name: String, stream: [UInt8], content: [UInt8])] {
    var streams: [(String, [UInt8], [UInt8])] = []
    for (name, input) in DeflateTests.inputs() {
      for level in [0, 1, 6, 9] {
        streams.append(("\(name) at level \(level)", Deflate.compress(input, level: level), input))
      }
    }
    let plain = levelRecords.first?.bytes("plain") ?? []
    for record in levelRecords.dropFirst() where record.string("format") == "raw" {
      streams.append(("zlib \(record.string("level"))", record.bytes("compressed"), plain))
    }
    return streams
  }

  @Test func acceptsExactlyTheContent() throws {
    let streams = try Self.streams()
    #expect(streams.count > 30)
    var random = SplitMix64(seed: 41)
    for (name, stream, content) in streams {
      // The decoder agrees on the content, so a refusal below is the verifier's.
      #expect(try Inflate.decompress(stream) == content, "\(name)")
      #expect(try Inflate.verify(stream, startingAt: 0, expecting: [], content) == stream.count, "\(name)")
      // Split between the two parts anywhere: at the ends, and at random places (a match may span the split).
      var splits = [0, content.count]
      for _ in 0..<4 { splits.append(Int(random.next() % UInt64(content.count + 1))) }
      for split in splits {
        let head = Array(content[..<split])
        let body = Array(content[split...])
        #expect(try Inflate.verify(stream, startingAt: 0, expecting: head, body) == stream.count, "\(name) at \(split)")
      }
    }
  }

  @Test func refusesOtherContent() throws {
    var random = SplitMix64(seed: 42)
    for (name, stream, content) in try Self.streams() where !content.isEmpty {
      // One byte changed (in the first part, across the split, in the second part), one byte more, one less.
      for _ in 0..<6 {
        var changed = content
        let index = Int(random.next() % UInt64(content.count))
        changed[index] ^= UInt8(truncatingIfNeeded: 1 + random.next() % 255)
        let split = Int(random.next() % UInt64(content.count + 1))
        #expect(
          try Inflate.verify(stream, startingAt: 0, expecting: Array(changed[..<split]), Array(changed[split...]))
            == nil, "\(name): byte \(index) changed")
      }
      #expect(try Inflate.verify(stream, startingAt: 0, expecting: [], content + [0]) == nil, "\(name): longer")
      #expect(try Inflate.verify(stream, startingAt: 0, expecting: [], Array(content.dropLast())) == nil, "\(name)")
    }
  }

  /// A malformed stream is never accepted: the verifier throws the decoder's error, or finds the content differs
  /// first (the invalid-stream fixtures; those whose error comes before any content throw exactly it).
  @Test func malformedStreamsAreNeverAccepted() {
    let beforeContent: Set = [
      "reserved-block-type", "invalid-stored-length", "incomplete-code-lengths", "oversubscribed-code-lengths",
      "invalid-code-length-sequence",
    ]
    var exact = 0
    for record in InflateTests.invalidRecords where record.string("format") == "raw" {
      let stream = record.bytes("stream")
      var decoded: CompressionError? = nil
      do { _ = try Inflate.decompress(stream) } catch { decoded = error }
      var verified: CompressionError? = nil
      var accepted = false
      do { accepted = try Inflate.verify(stream, startingAt: 0, expecting: [], []) != nil } catch { verified = error }
      #expect(
        !accepted || decoded?.failureClass == "trailing-garbage" || decoded?.failureClass == "output-limit-exceeded")
      if let decoded, beforeContent.contains(decoded.failureClass), let verified, verified == decoded { exact += 1 }
    }
    #expect(exact > 0)
  }

  @Test func gzipMember() throws {
    var random = SplitMix64(seed: 43)
    let head = random.bytes(300)
    let body = random.text(80_000)
    let member = Gzip.compress(head + body, level: 6)
    #expect(try Gzip.verifyMember(member, expecting: head, body))
    #expect(try Gzip.verifyMember(member, expecting: [], head + body))
    var other = body
    other[40_000] ^= 0x20
    #expect(try !Gzip.verifyMember(member, expecting: head, other))
    // A wrong CRC-32 or ISIZE in the trailer, or anything after the member, is refused too.
    for offset in [member.count - 8, member.count - 4] {
      var damaged = member
      damaged[offset] ^= 0x01
      #expect(try !Gzip.verifyMember(damaged, expecting: head, body))
    }
    #expect(try !Gzip.verifyMember(member + [0], expecting: head, body))
    #expect(throws: CompressionError.self) { try Gzip.verifyMember(Array(member.dropLast(9)), expecting: head, body) }
  }
}

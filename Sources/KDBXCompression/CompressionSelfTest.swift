import KDBXBase

/// The known-answer checks of `KDBXCompression` for the library's self-test (`KDBXSelfTest.run()` in `KDBX`):
/// CRC-32 (RFC 1952 §8), inflate (RFC 1951) and deflate, each fast kernel also against a reference path.
///
/// The checks go to the self-test recorder of `KDBXBase`; `KDBX` makes the report. Never traps, uses no I/O, builds
/// in Embedded Swift.
package enum CompressionSelfTest {
  /// Runs every check into `recorder`.
  package static func run(into recorder: inout SelfTestRecorder) {
    // The CRC catalogue's check value (CRC-32/ISO-HDLC), also in deflate/crc32-python-zlib.vec.
    recorder.record(
      "crc32", "CRC-32 of \"123456789\" = 0xcbf43926 (deflate/crc32-python-zlib.vec)",
      expected: [0xcb, 0xf4, 0x39, 0x26], actual: bigEndian(CRC32.checksum(Array("123456789".utf8))))
    // The sliced table kernel against the bit-at-a-time definition (RFC 1952 §8), on pseudo-random bytes.
    var pattern = SelfTestPattern(seed: 0x4352_4333)
    let random = pattern.bytes(3001)
    recorder.record(
      "crc32-tables", "table kernel vs bit-at-a-time CRC-32 (RFC 1952 §8), 3001 pseudo-random bytes",
      expected: bigEndian(bitwiseCRC32(random)), actual: bigEndian(CRC32.checksum(random)))
    inflateCheck(&recorder)
    deflateCheck(&pattern, &recorder)
  }

  /// zlib's raw DEFLATE (level 6) of the 1500-byte text of `deflate/rfc1951-zlib-levels.vec`; the CRC-32 and
  /// size of the output must be those GNU gzip -9 stored for the same text (`deflate/rfc1952-gzip-tool.vec`).
  static func inflateCheck(_ recorder: inout SelfTestRecorder) {
    let stream =
      Hex.decode(
        "7d54cb8edc20103c6ffe65b5b3b3520e2b6b6ec925d25e32c92137c09887011b30c6e6eb6303ed28236b6fe376757557"
          + "557b50ab85a17c4abf3c751f48d321388663f37372c2b05b6f47e47d1c5c9bacec85bcbb4037e04c9defd0de1af1cc01"
          + "c2e43c63120c50e1d1cae6e59b99dc7a0b9d31d7cbf5ebf3ebebf3dbe57ebdbebf5dde2f973f82ee946d74a6d072dbbc"
          + "fc462ad05b531acf9a0a74ec65ff1d294f713803018f5d2b1314be3c3d9d6e222a2e2e64cebca98d018c38ebd0b12c62"
          + "5d380ce3b52679f383aeb7bb98146d5ef69f0e814f995c79333a0ff6e45217bde3f8b16f5b17c89b220023d28771e840"
          + "577dcb425a806fd47d4bd52c33ef4050bbb1c4191658425f538c32a778a66ecfe5ac0e2454c53691b24b26291ae84465"
          + "b2aeaeaa6d7e85384e65e070e49be102b16e64645084bb42852946b9072fa59071a08bc5477bc4f0586915913c7eb67a"
          + "a6d4228f811a1c2da901c27315028fb9157a3a44a6b33965f1a5cbe09559b82c568f3ca92d0e8bf764cb8b525e82d15e"
          + "7b07b996c93d2a746ca8053b4a6d87b3b99226028b767ea34725993dca241c0217b186103c2be4a3767ee679df681f0d"
          + "2d90d8c3a1ed74341a4fe620cfd658b93b343c502d9ccdcbd219a042ba48ffec335be4c0f791a04c59d13e7cd23c3272"
          + "d61aca51520cf8aa3f0b027fcd66d4ce2f194cf06b6e0bbe55d93fe14b074f90fce164ae9fdec062549de08e7fc889b9"
          + "7fd277669d0c3e2e6f5dd7e246c700341ff063727dfeef20a158d6094974bb337f01") ?? []
    let source =
      "zlib 1.2.13 level 6 (deflate/rfc1951-zlib-levels.vec) vs gzip -9 CRC-32 and ISIZE (rfc1952-gzip-tool.vec)"
    let expected: [UInt8] = [0x77, 0xe1, 0xce, 0xd5, 0xdc, 0x05, 0x00, 0x00]
    do {
      let output = try Inflate.decompress(stream, maxOutputByteCount: 1 << 16)
      recorder.record("inflate", source, expected: expected, actual: trailer(output))
    } catch {
      recorder.record("inflate", source, expected: expected, actual: [], error: error.failureClass)
    }
  }

  /// Deflate (match finder, Huffman coder) and inflate (fast loop and careful tail) round trip on text-like
  /// pseudo-random input at levels 1 and 6: the CRC-32 and size must come back.
  static func deflateCheck(_ pattern: inout SelfTestPattern, _ recorder: inout SelfTestRecorder) {
    let text = pattern.text(20_000)
    let source = "deflate then inflate, levels 1 and 6, 20 KB of pseudo-random text: CRC-32 and size"
    let expected = trailer(text) + trailer(text)
    do {
      let fast = try Inflate.decompress(Deflate.compress(text, level: 1), maxOutputByteCount: 1 << 20)
      let best = try Inflate.decompress(Deflate.compress(text, level: 6), maxOutputByteCount: 1 << 20)
      recorder.record("deflate", source, expected: expected, actual: trailer(fast) + trailer(best))
    } catch {
      recorder.record("deflate", source, expected: expected, actual: [], error: error.failureClass)
    }
  }

  /// The gzip trailer of `bytes` (RFC 1952 §2.3.1): CRC-32 and size modulo 2^32, little-endian.
  static func trailer(_ bytes: [UInt8]) -> [UInt8] {
    let crc = CRC32.checksum(bytes)
    let size = UInt32(truncatingIfNeeded: bytes.count)
    return [
      UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8), UInt8(truncatingIfNeeded: crc >> 16),
      UInt8(truncatingIfNeeded: crc >> 24), UInt8(truncatingIfNeeded: size), UInt8(truncatingIfNeeded: size >> 8),
      UInt8(truncatingIfNeeded: size >> 16), UInt8(truncatingIfNeeded: size >> 24),
    ]
  }

  /// CRC-32 one bit at a time, as RFC 1952 §8 defines it (reflected polynomial 0xedb88320).
  static func bitwiseCRC32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xffff_ffff
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
    }
    return ~crc
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [
      UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
      UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
    ]
  }
}

import KDBXBase
import KDBXCompression
import KDBXCrypto
import KDBXXML

/// The library's whole known-answer self-test: every primitive of `KDBXCrypto` (`SelfTest`), CRC-32, inflate
/// and deflate (`KDBXCompression`), the XML reader and writer (`KDBXXML`), and a whole KDBX 4 open of a tiny vault
/// written by keepassxc-cli (ChaCha20, AES-KDF, gzip, HMAC blocks, the inner ChaCha20 stream, the XML model), and
/// the Base64 kernels against RFC 4648 written out plainly.
///
/// Call it once when the app starts, before the first vault is opened: it takes a few milliseconds in a release
/// build, needs no files, threads or clock, never traps and never throws. When `SelfTestReport/passed` is
/// `false`, the code in this process computes a primitive wrongly (a miscompiled kernel, a broken build for this
/// CPU): do not derive keys or open or save vaults; show an error and report the failures (every result carries
/// its expected and actual value; none is secret).
///
/// ```swift
/// let report = KDBXSelfTest.run()
/// if !report.passed {
///   for failure in report.failures { log("\(failure.primitive) \(failure.source): \(failure.actualHex)") }
///   disableVaultAccess()
/// }
/// ```
public enum KDBXSelfTest {
  /// Runs every check of `KDBXCrypto`, `KDBXCompression`, `KDBXXML` and `KDBX`.
  public static func run() -> SelfTestReport { run(fault: nil) }

  /// Runs every check, corrupting one primitive's output when `fault` is set (tests only).
  package static func run(fault: SelfTestFault?) -> SelfTestReport {
    var recorder = SelfTestRecorder(fault: fault)
    SelfTest.run(into: &recorder)
    CompressionSelfTest.run(into: &recorder)
    XMLSelfTest.run(into: &recorder)
    checkBase64(&recorder)
    checkOpen(&recorder)
    return recorder.report
  }

  /// The Base64 kernels (protected values, binaries, UUIDs) against RFC 4648 §4 written out one group at a time,
  /// on pseudo-random bytes of every length 0...66 (all three tail cases), both ways.
  static func checkBase64(_ recorder: inout SelfTestRecorder) {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var pattern = SelfTestPattern(seed: 0x4236_3420)
    var reference: [UInt8] = []
    var encoded: [UInt8] = []
    var inputs: [UInt8] = []
    var decoded: [UInt8] = []
    for length in 0...66 {
      let bytes = pattern.bytes(length)
      inputs += bytes
      var index = 0
      while index < bytes.count {
        let count = min(3, bytes.count - index)
        var group: UInt32 = 0
        for offset in 0..<3 { group = group << 8 | UInt32(offset < count ? bytes[index + offset] : 0) }
        for position in 0..<4 {
          let sextet = Int((group >> UInt32(18 - 6 * position)) & 63)
          reference.append(position <= count ? alphabet[sextet] : UInt8(ascii: "="))
        }
        index += 3
      }
      reference.append(0x0a)
      let text = Base64.encode(bytes)
      encoded += Array(text.utf8) + [0x0a]
      decoded += Base64.decode(text) ?? [0xff]
    }
    let source = "Base64 kernel vs RFC 4648 §4 one group at a time, pseudo-random bytes of lengths 0-66"
    recorder.record("base64-encode", source, expected: reference, actual: encoded)
    recorder.record("base64-decode", source, expected: inputs, actual: decoded)
  }

  /// Opens the fixture and compares what it holds with what pykeepass read from it (`.expected.json`): 6 entries
  /// (history excluded), and the GitHub entry's user name and protected password.
  static func checkOpen(_ recorder: inout SelfTestRecorder) {
    let primitive = "kdbx4-open"
    let source = "KDBX 4.0 fixture by keepassxc-cli 2.7.4 (kdbx/fixtures/kdbx40-chacha20-aeskdf.kdbx)"
    let expected = Array("6 entries; GitHub octocat correct horse battery staple".utf8)
    guard let bytes = Base64.decode(fixtureBase64) else {
      recorder.record(primitive, source, expected: expected, actual: [], error: "the embedded fixture is not Base64")
      return
    }
    do {
      let opened = try open(bytes: bytes, key: CompositeKey(password: "fixture"))
      let entries = opened.database.flatEntries
      let github = entries.first { $0.entry[field: "Title"]?.reveal() == "GitHub" }?.entry
      let summary =
        "\(entries.count) entries; GitHub " + (github?[field: "UserName"]?.reveal() ?? "(missing)") + " "
        + (github?[field: "Password"]?.reveal() ?? "(missing)")
      recorder.record(primitive, source, expected: expected, actual: Array(summary.utf8))
    } catch {
      recorder.record(primitive, source, expected: expected, actual: [], error: error.description)
    }
  }

  /// Opens with the standard primitives and a fixed-seed generator for the pads of protected values (no system
  /// randomness needed: the pads only obfuscate values in memory, and these are published test values).
  static func open(bytes: [UInt8], key: CompositeKey) throws(KDBXError) -> OpenedDatabase {
    let generator: ChaCha20RandomNumberGenerator
    do {
      generator = try ChaCha20RandomNumberGenerator(seed: [UInt8](repeating: 0x5a, count: 32))
    } catch {
      throw KDBXError.crypto(error)
    }
    var random = generator
    var primitives = StandardPrimitives()
    primitives.maxConcurrency = 1  // no tasks: the self-test runs on the calling thread only
    primitives.argon2MaxConcurrency = 1
    return try KDBXFile.open(bytes: bytes, key: key, primitives: primitives, random: &random, options: .default)
  }
}

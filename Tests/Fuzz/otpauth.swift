// Fuzz target: the OTP storage formats in Sources/KDBX/OTP. The first byte picks the parser:
//   0: `OTPAuthURI.parse` (otpauth:// URI); a parsed URI is formatted and parsed again (same generator);
//   1: `KeeOTPString.matches` / `parse` (KeeOTP `key=...&step=...`);
//   2: `KeePassXCLegacyOTP.parse(seed:settings:)` (first line the seed, second line the settings, if any);
//   3: an `Entry` whose fields come from the lines (each line: one byte picks an OTP field name, the rest is the
//      value): `oneTimePasswordReadings()`, `oneTimePassword()`, then `setOneTimePassword` writes the
//      configuration back in the interoperable formats and reading it again must give the same generator.
// Every generator that parses computes codes at a few times (TOTP and HOTP, decimal and Steam).
import KDBX

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 1 else { return 0 }
  let mode = data[0] & 3
  let rest = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let text = String(decoding: rest, as: UTF8.self)
  switch mode {
  case 0:
    guard let configuration = try? OTPAuthURI.parse(text) else { return 0 }
    exercise(configuration.generator)
    let uri = OTPAuthURI.format(configuration)
    let again: OTPConfiguration
    do { again = try OTPAuthURI.parse(uri) } catch { fatalError("formatted URI does not parse: \(uri) \(error)") }
    if again.generator != configuration.generator { fatalError("URI round trip changed the generator: \(uri)") }
  case 1:
    _ = KeeOTPString.matches(text)
    if let configuration = try? KeeOTPString.parse(text) { exercise(configuration.generator) }
  case 2:
    let lines = rest.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
    let seed = String(decoding: lines.first ?? [], as: UTF8.self)
    let settings = lines.count > 1 ? String(decoding: lines[1], as: UTF8.self) : nil
    if let configuration = try? KeePassXCLegacyOTP.parse(seed: seed, settings: settings) {
      exercise(configuration.generator)
      if let pair = try? KeePassXCLegacyOTP.format(configuration.generator) {
        guard let back = try? KeePassXCLegacyOTP.parse(seed: pair.seed, settings: pair.settings) else {
          fatalError("formatted TOTP Seed/Settings do not parse: \(pair)")
        }
        if back.generator != configuration.generator { fatalError("TOTP Seed/Settings round trip differs: \(pair)") }
      }
    }
  default:
    var random = SplitMix64(seed: UInt64(size))
    guard let uuid = KDBXUUID(bytes: [UInt8](repeating: 7, count: 16)) else { return 0 }
    var entry = Entry(uuid: uuid)
    for line in rest.split(separator: 0x0A) {
      guard let selector = line.first else { continue }
      let name = OTPFieldNames.all[Int(selector) % OTPFieldNames.all.count]
      let value = String(decoding: line.dropFirst(), as: UTF8.self)
      entry[field: name] = selector & 0x80 == 0 ? .plain(value) : .protected(ProtectedValue(value, using: &random))
    }
    _ = entry.oneTimePasswordReadings()
    guard let configuration = entry.oneTimePassword() else { return 0 }
    exercise(configuration.generator)
    var written = entry
    do {
      try written.setOneTimePassword(configuration, formats: .interoperable, random: &random)
    } catch {
      return 0  // not representable in KeePass's fields (Steam): nothing was changed
    }
    guard let back = written.oneTimePassword() else { fatalError("written OTP settings do not read") }
    if back.generator != configuration.generator { fatalError("OTP settings round trip changed the generator") }
  }
  return 0
}

func exercise(_ generator: OneTimePassword) {
  for time: Int64 in [0, 59, 1_111_111_109, 2_000_000_000, Int64.max, Int64.min] {
    let code = generator.code(at: time)
    if code.isEmpty { fatalError("empty code") }
    _ = generator.secondsRemaining(at: time)
  }
}

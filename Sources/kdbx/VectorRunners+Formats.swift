import KDBX
import KDBXCompression
import KDBXCrypto
import KDBXXML

// Runners for the format layers: compression, XML, one-time passwords and the corpus-derived KDBX files.

extension VectorRunners {
  static func formatRunner(folder: String, name: String, path: String) -> VectorRunner? {
    switch (folder, name) {
    case ("deflate", "crc32-python-zlib.vec"): return crc32
    case ("deflate", "rfc1952-gzip-tool.vec"): return gzipTool
    case ("deflate", _) where path.hasPrefix("deflate/invalid/"): return invalidStream
    case ("xml", "xml10-wellformed.vec"): return xmlWellFormed
    case ("xml", "xml10-invalid.vec"): return xmlInvalid
    case ("otp", "rfc4226-hotp.vec"), ("otp", "rfc6238-totp.vec"), ("otp", "pyotp-cases.vec"): return otpCase
    case ("otp", "steam-guard.vec"): return steamGuard
    case ("otp", "pyotp-storage.vec"): return otpStorage
    default: return nil
    }
  }

  static func compression<T>(_ body: () throws(CompressionError) -> T) throws(VectorMismatch) -> T {
    try attempt(body, describe: { $0.failureClass })
  }

  static func crc32(_ record: VectorRecord) throws(VectorMismatch) {
    let crc = CRC32.checksum(try record.bytes("msg"))
    try check(Int(crc) == record.int("crc"), "crc \(crc)")
  }

  /// `deflate/rfc1951-zlib-levels.vec`: the first record holds the plain text that the others decompress to.
  static func zlibLevel(_ record: VectorRecord, plain: [UInt8]) throws(VectorMismatch) {
    if record.has("plain") && !record.has("compressed") { return }
    let compressed = try record.bytes("compressed")
    let raw = try record.string("format") == "raw"
    let output = try compression { () throws(CompressionError) in
      raw ? try Inflate.decompress(compressed) : try Gzip.decompress(compressed)
    }
    try check(output == plain, "output differs from the plain text")
  }

  static func gzipTool(_ record: VectorRecord) throws(VectorMismatch) {
    let compressed = try record.bytes("compressed")
    let output = try compression { () throws(CompressionError) in try Gzip.decompress(compressed) }
    try check(output == record.bytes("plain"), "output differs from the plain text")
  }

  static func invalidStream(_ record: VectorRecord) throws(VectorMismatch) {
    let stream = try record.bytes("stream")
    let limit = record.has("limit") ? try record.int("limit") : Int.max
    let raw = try record.string("format") == "raw"
    var failure: CompressionError? = nil
    do {
      if raw {
        _ = try Inflate.decompress(stream, maxOutputByteCount: limit)
      } else {
        _ = try Gzip.decompress(stream, maxOutputByteCount: limit)
      }
    } catch {
      failure = error
    }
    guard let failure else { throw VectorMismatch("accepted a stream that must be refused") }
    try check(failure.failureClass == record.string("error"), "refused as \(failure.failureClass)")
    if record.has("offset") {
      try check(failure.offset == record.int("offset"), "offset \(failure.offset.map { "\($0)" } ?? "none")")
    }
    if record.has("size") {
      let size = try record.int("size")
      let decoded = try? Inflate.decompress(stream, maxOutputByteCount: size)
      try check(decoded?.count == size, "does not decode with room for \(size) bytes")
    }
  }

  static func xmlWellFormed(_ record: VectorRecord) throws(VectorMismatch) {
    let document = try record.bytes("document")
    let expected = try record.bytes("events")
    let events: [UInt8]
    do {
      events = try XMLSelfTest.events(document)
    } catch {
      throw VectorMismatch("rejected: \(error)")
    }
    try check(events == expected, "events:\n" + String(decoding: events, as: UTF8.self))
  }

  static func xmlInvalid(_ record: VectorRecord) throws(VectorMismatch) {
    var limits = XMLReader.Limits()
    if record.has("max_depth") { limits.maximumDepth = try record.int("max_depth") }
    if record.has("max_attributes") { limits.maximumAttributeCount = try record.int("max_attributes") }
    if record.has("max_name") { limits.maximumNameLength = try record.int("max_name") }
    if record.has("max_token") { limits.maximumTokenLength = try record.int("max_token") }
    let options = XMLReader.Options(allowsDoctype: record.has("allow_doctype"), limits: limits)
    var reader = XMLReader(bytes: try record.bytes("document"), options: options)
    do {
      while try reader.next() != nil {}
    } catch {
      try check(error.kind.caseName == record.string("kind"), "refused as \(error.kind.caseName)")
      try check(error.line == record.int("line"), "line \(error.line)")
      try check(error.column == record.int("column"), "column \(error.column)")
      return
    }
    throw VectorMismatch("accepted an ill-formed document")
  }

  static func otpCase(_ record: VectorRecord) throws(VectorMismatch) {
    let algorithm: OneTimePassword.Algorithm
    switch try record.string("algorithm") {
    case "sha256": algorithm = .sha256
    case "sha512": algorithm = .sha512
    default: algorithm = .sha1
    }
    let digits = try record.int("digits")
    let kind: OneTimePassword.Kind
    let time: Int64
    if record.has("counter") {
      guard let counter = UInt64(try record.string("counter")) else { throw VectorMismatch("bad counter") }
      kind = .hotp(counter: counter)
      time = 0
    } else {
      kind = .totp(period: try record.int("period"))
      time = Int64(try record.int("time"))
    }
    let secret = try record.bytes("secret")
    let otp = try attempt { () throws(OneTimePassword.ParameterError) in
      try OneTimePassword(secret: secret, algorithm: algorithm, encoding: .decimal(digits: digits), kind: kind)
    }
    let code = otp.code(at: time)
    try check(code == record.string("code"), "code \(code)")
  }

  static func steamGuard(_ record: VectorRecord) throws(VectorMismatch) {
    let secret = try record.bytes("secret")
    let otp = try attempt { () throws(OneTimePassword.ParameterError) in
      try OneTimePassword(secret: secret, encoding: .steam, kind: .totp(period: 30))
    }
    let code = otp.code(at: Int64(try record.int("time")))
    try check(code == record.string("code"), "code \(code)")
  }

  static func otpStorage(_ record: VectorRecord) throws(VectorMismatch) {
    var random = SystemRandomNumberGenerator()
    var entry = Entry.new(clock: FixedClock(.minimum), random: &random)
    var index = 1
    while record.has("field\(index)") {
      entry[field: try record.string("field\(index)")] = .plain(try record.string("value\(index)"))
      index += 1
    }
    guard let configuration = entry.oneTimePassword() else {
      throw VectorMismatch("no one-time password found")
    }
    let code = configuration.generator.code(at: Int64(try record.int("time")))
    try check(code == record.string("code"), "code \(code)")
    let winner = entry.oneTimePasswordReadings().first { if case .success = $0.result { true } else { false } }
    try check(
      winner.map { "\($0.format)" } == record.string("format"), "format \(winner.map { "\($0.format)" } ?? "none")")
    if record.has("issuer") { try check(configuration.issuer == record.string("issuer"), "issuer") }
    if record.has("account") { try check(configuration.account == record.string("account"), "account") }
  }
}

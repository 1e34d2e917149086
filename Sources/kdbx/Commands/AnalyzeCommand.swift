import KDBX
import KDBXBase
import KDBXCrypto
import KDBXFileIO
import KDBXPasswords

/// `kdbx analyze FILE`: the health of a vault's passwords: weak (``PasswordStrength``), reused, expired or soon to
/// expire, not changed for long, and, with `--hibp FILE`, found in a local Have I Been Pwned list.
enum AnalyzeCommand {
  static let command = Command(
    name: "analyze", arguments: "FILE",
    summary: "Weak, reused, expired and old passwords (--hibp LIST: a local Have I Been Pwned list).",
    section: .reading,
    details: """
      Reports entries (outside the recycle bin) whose password is weak (rated very weak, weak or fair by
      'kdbx estimate'), reused (the same password in several entries, listed by path), expired, expiring
      within --soon-days (default 30), or not changed for --old-days (default 365; 0 turns it off).
      --hibp LIST checks every password against a local Have I Been Pwned list of SHA-1 hashes ('HASH:COUNT'
      lines, as downloaded, many GB): it is read as a stream with bounded memory, and each breached entry is
      reported with its count. Nothing goes to the network. --json prints one document.
      """,
    options: [
      OptionSpec(
        ["--hibp"], value: "LIST", path: true,
        "Check every password against a local Have I Been Pwned list of SHA-1 hashes."),
      OptionSpec(["--old-days"], value: "N", "Report passwords not changed for N days (default 365; 0 turns it off)."),
      OptionSpec(["--soon-days"], value: "N", "Report passwords expiring within N days (default 30)."),
      OptionSpec(["--json"], "Print one JSON document."),
    ] + CommandTable.readingVault,
    run: run)

  struct Item {
    var path: String
    var password: String
  }

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let hibpPath = arguments.value("--hibp")
    let oldDays = try arguments.integer("--old-days", in: 0...36_500) ?? 365
    let soonDays = try arguments.integer("--soon-days", in: 0...36_500) ?? 30
    let json = arguments.flag("--json")
    // The list must be readable before a password is asked for.
    if let hibpPath { try ChunkedFile.checkReadable(hibpPath) }
    let vault = try VaultAccess.open(&arguments, maxPositionals: 1)
    let now = SystemClock().now()

    var items: [Item] = []
    var weak: [(Item, PasswordStrength)] = []
    var expired: [(String, Timestamp)] = []
    var soon: [(String, Timestamp)] = []
    var old: [(String, Int, Timestamp)] = []
    for flat in vault.database.flatEntries where !flat.isInRecycleBin {
      let entry = flat.entry
      let path = (flat.groupPath + [ListCommand.title(entry)]).joined(separator: "/")
      if let times = entry.times, times.expires == true, let expiry = times.expiryTime {
        if expiry < now {
          expired.append((path, expiry))
        } else if expiry.unixSeconds - now.unixSeconds <= Int64(soonDays) * 86_400 {
          soon.append((path, expiry))
        }
      }
      guard let password = entry[field: "Password"]?.reveal(), !password.isEmpty else { continue }
      let item = Item(path: path, password: password)
      items.append(item)
      let strength = PasswordStrength(estimating: password)
      if strength.rating < .strong { weak.append((item, strength)) }
      if oldDays > 0, let changed = passwordChanged(entry) {
        let days = Self.days(from: changed, to: now)
        if days >= oldDays { old.append((path, days, changed)) }
      }
    }
    // Reused: entries grouped by the SHA-256 of their password (no copy of a password is kept as a key).
    var groups: [[UInt8]: [String]] = [:]
    var order: [[UInt8]] = []
    for item in items {
      let digest = SHA256.hash(Array(item.password.utf8)).bytes
      if groups[digest] == nil { order.append(digest) }
      groups[digest, default: []].append(item.path)
    }
    let reused = order.compactMap { groups[$0] }.filter { $0.count > 1 }
    var breached: [(String, Int)] = []
    if let hibpPath { breached = try hibp(hibpPath, items: items) }

    if json {
      func time(_ t: Timestamp) -> JSONValue { .string(ISO8601.format(t)) }
      let document = JSONValue.object([
        ("entriesChecked", .number(items.count)),
        (
          "weak",
          .array(
            weak.map { item, strength in
              .object([
                ("path", .string(item.path)), ("bits", .double(EstimateCommand.rounded(strength.bits))),
                ("rating", .string(strength.rating.name)),
                ("reasons", .array(strength.reasons.map { .string($0.description) })),
              ])
            })
        ),
        ("reused", .array(reused.map { .array($0.map { .string($0) }) })),
        ("expired", .array(expired.map { .object([("path", .string($0.0)), ("expiry", time($0.1))]) })),
        ("expiringSoon", .array(soon.map { .object([("path", .string($0.0)), ("expiry", time($0.1))]) })),
        (
          "old",
          .array(
            old.map { .object([("path", .string($0.0)), ("days", .number($0.1)), ("changed", time($0.2))]) })
        ),
        (
          "breached",
          hibpPath == nil
            ? .null : .array(breached.map { .object([("path", .string($0.0)), ("count", .number($0.1))]) })
        ),
      ])
      Terminal.out(document.rendered() + "\n")
      return
    }
    // Paths are vault text: one line each, whatever they hold (a title with a line feed could forge a line).
    var text = ""
    text += "Weak passwords (\(weak.count)):\n"
    for (item, strength) in weak {
      let why = strength.reasons.map { TerminalText.line($0.description) }.joined(separator: "; ")
      text +=
        "  \(TerminalText.line(item.path)): \(strength.rating.name), \(EstimateCommand.rounded(strength.bits)) bits"
        + (why.isEmpty ? "" : " (\(why))") + "\n"
    }
    text += "Reused passwords (\(reused.count)):\n"
    for paths in reused {
      text += "  \(paths.count) entries: \(paths.map(TerminalText.line).joined(separator: ", "))\n"
    }
    text += "Expired (\(expired.count)):\n"
    for (path, expiry) in expired { text += "  \(TerminalText.line(path)): expired \(ISO8601.format(expiry))\n" }
    text += "Expiring within \(soonDays) days (\(soon.count)):\n"
    for (path, expiry) in soon { text += "  \(TerminalText.line(path)): expires \(ISO8601.format(expiry))\n" }
    if oldDays > 0 {
      text += "Not changed for \(oldDays) days or more (\(old.count)):\n"
      for (path, days, _) in old { text += "  \(TerminalText.line(path)): \(days) days\n" }
    }
    if hibpPath != nil {
      text += "Breached (Have I Been Pwned) (\(breached.count)):\n"
      for (path, count) in breached { text += "  \(TerminalText.line(path)): seen \(count) times\n" }
    }
    text += "\(items.count) entries with a password checked.\n"
    Terminal.out(text)
  }

  /// Whole days from `start` to `end`. A file's times may hold any `Int64` (a crafted one made the plain subtraction
  /// overflow and stop the tool): a difference beyond `Int64` counts as the largest number of days either way.
  static func days(from start: Timestamp, to end: Timestamp) -> Int {
    let (seconds, overflow) = end.unixSeconds.subtractingReportingOverflow(start.unixSeconds)
    guard !overflow else { return start < end ? Int.max : Int.min }
    return Int(seconds / 86_400)
  }

  /// When the entry's current password was set: the modification time of the oldest version, in the unbroken
  /// run of versions up to the current one, that has the current password.
  static func passwordChanged(_ entry: Entry) -> Timestamp? {
    let current = entry[field: "Password"]?.reveal() ?? ""
    var changed = entry.times?.lastModificationTime ?? entry.times?.creationTime
    let history = (entry.history ?? []).sorted {
      ($0.times?.lastModificationTime ?? Timestamp.minimum)
        < ($1.times?.lastModificationTime ?? Timestamp.minimum)
    }
    for version in history.reversed() {
      guard (version[field: "Password"]?.reveal() ?? "") == current else { break }
      if let time = version.times?.lastModificationTime ?? version.times?.creationTime { changed = time }
    }
    return changed
  }

  /// The entries whose password's SHA-1 is in the HIBP list at `path`, with the list's count, in entry order.
  /// The list is read once, in 1 MiB chunks: memory is bounded whatever its size.
  static func hibp(_ path: String, items: [Item]) throws(CLIError) -> [(String, Int)] {
    var wanted: [[UInt8]: [Int]] = [:]
    for (index, item) in items.enumerated() {
      let hex = Array(Hex.encode(SHA1.hash(Array(item.password.utf8)).bytes, uppercase: true).utf8)
      wanted[hex, default: []].append(index)
    }
    var counts: [Int: Int] = [:]
    var line: [UInt8] = []
    line.reserveCapacity(128)
    var lineNumber = 0
    func finishLine() throws(CLIError) {
      lineNumber += 1
      if line.last == 0x0D { line.removeLast() }
      defer { line.removeAll(keepingCapacity: true) }
      if line.isEmpty { return }
      guard line.count > 41, line.count <= 60, line[40] == 0x3A else {
        throw .failure("\(path) line \(lineNumber) is not a HIBP 'SHA1HASH:COUNT' line")
      }
      var hash = Array(line[0..<40])
      var count = 0
      for index in hash.indices {
        let byte = hash[index]
        switch byte {
        case 0x30...0x39, 0x41...0x46: break
        case 0x61...0x66: hash[index] = byte - 0x20
        default: throw .failure("\(path) line \(lineNumber) is not a HIBP 'SHA1HASH:COUNT' line")
        }
      }
      for byte in line[41...] {
        guard byte >= 0x30, byte <= 0x39, count < Int.max / 10 - 10 else {
          throw .failure("\(path) line \(lineNumber) has a count that is not a number")
        }
        count = count * 10 + Int(byte - 0x30)
      }
      if let indices = wanted[hash] { for index in indices { counts[index] = count } }
    }
    try ChunkedFile.forEachChunk(path) { chunk throws(CLIError) in
      for byte in chunk {
        if byte == 0x0A {
          try finishLine()
        } else {
          guard line.count < 60 else {
            throw .failure("\(path) line \(lineNumber + 1) is not a HIBP 'SHA1HASH:COUNT' line (too long)")
          }
          line.append(byte)
        }
      }
    }
    try finishLine()
    return items.indices.compactMap { index in counts[index].map { (items[index].path, $0) } }
  }
}

// A deterministic, KeePass-like XML document (the inner XML of a KDBX 4 file) for the XML and
// DEFLATE benchmarks: Meta, nested groups, entries with Times, protected and plain strings,
// custom fields, AutoType and History. Its shape and density follow what KeePass 2.x writes.

/// Builds a document of about `targetBytes` bytes. The same size always gives the same bytes.
func keePassDocument(targetBytes: Int) -> [UInt8] {
  var builder = KeePassDocumentBuilder()
  return builder.build(targetBytes: targetBytes)
}

/// The 50 MB document shared by the XML and DEFLATE benchmarks, built once per process.
nonisolated(unsafe) private var cachedDocument: [UInt8]? = nil
func benchmarkDocument() -> [UInt8] {
  if let document = cachedDocument { return document }
  let document = keePassDocument(targetBytes: 50_000_000)
  cachedDocument = document
  return document
}

private struct KeePassDocumentBuilder {
  var random = BenchRandom(seed: 0x4b44_4258)
  var out: [UInt8] = []
  let syllables = [
    "ka", "lo", "mi", "ne", "ro", "ta", "shi", "ven", "dor", "el", "an", "ber", "con", "dra", "fel", "gor", "hal",
    "ist", "jun", "kor", "lin", "mor", "nal", "oth", "pra", "qui", "ras", "sol", "tur", "ul",
  ]
  let common = ["login", "account", "backup", "server", "admin", "email", "bank", "work", "home", "recovery", "pin"]
  let domains = ["com", "org", "net", "de", "io", "co.uk", "fr"]

  mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
  mutating func number(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(random.next() % UInt64(range.count))
  }

  mutating func word() -> String {
    if number(0...9) < 3 { return pick(common) }
    var text = ""
    for _ in 0..<number(1...4) { text += pick(syllables) }
    return text
  }

  mutating func sentence(_ words: Int) -> String {
    var parts: [String] = []
    for _ in 0..<words { parts.append(word()) }
    return parts.joined(separator: " ") + "."
  }

  mutating func base64(_ count: Int) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    let bytes = random.bytes(count)
    var text = ""
    var index = 0
    while index < bytes.count {
      let b0 = Int(bytes[index])
      let b1 = index + 1 < bytes.count ? Int(bytes[index + 1]) : 0
      let b2 = index + 2 < bytes.count ? Int(bytes[index + 2]) : 0
      text.append(alphabet[b0 >> 2])
      text.append(alphabet[(b0 & 3) << 4 | b1 >> 4])
      text.append(index + 1 < bytes.count ? alphabet[(b1 & 15) << 2 | b2 >> 6] : "=")
      text.append(index + 2 < bytes.count ? alphabet[b2 & 63] : "=")
      index += 3
    }
    return text
  }

  mutating func line(_ depth: Int, _ text: String) {
    for _ in 0..<depth { out.append(0x09) }
    out.append(contentsOf: text.utf8)
    out.append(0x0a)
  }

  mutating func times(_ depth: Int) {
    line(depth, "<Times>")
    for name in ["CreationTime", "LastModificationTime", "LastAccessTime", "ExpiryTime"] {
      line(depth + 1, "<\(name)>\(base64(8))</\(name)>")
    }
    line(depth + 1, "<Expires>False</Expires>")
    line(depth + 1, "<UsageCount>\(number(0...50))</UsageCount>")
    line(depth + 1, "<LocationChanged>\(base64(8))</LocationChanged>")
    line(depth, "</Times>")
  }

  mutating func string(_ depth: Int, key: String, value: String, protected: Bool) {
    line(depth, "<String>")
    line(depth + 1, "<Key>\(key)</Key>")
    line(depth + 1, protected ? "<Value Protected=\"True\">\(value)</Value>" : "<Value>\(value)</Value>")
    line(depth, "</String>")
  }

  mutating func entry(_ depth: Int, history: Bool) {
    let domain = word() + word() + "." + pick(domains)
    line(depth, "<Entry>")
    line(depth + 1, "<UUID>\(base64(16))</UUID>")
    line(depth + 1, "<IconID>\(number(0...68))</IconID>")
    line(depth + 1, "<ForegroundColor />")
    line(depth + 1, "<BackgroundColor />")
    line(depth + 1, "<OverrideURL />")
    line(depth + 1, number(0...9) < 3 ? "<Tags>\(word());\(word())</Tags>" : "<Tags />")
    times(depth + 1)
    var notes: [String] = []
    for _ in 0..<number(0...6) { notes.append(sentence(number(4...14))) }
    string(
      depth + 1, key: "Notes", value: notes.joined(separator: " ") + (number(0...9) == 0 ? " &amp; more" : ""),
      protected: false)
    string(depth + 1, key: "Password", value: base64(number(10...32)), protected: true)
    string(depth + 1, key: "Title", value: word().capitalized + " " + word().capitalized, protected: false)
    string(depth + 1, key: "URL", value: "https://www.\(domain)/\(word())", protected: false)
    string(depth + 1, key: "UserName", value: "\(word()).\(word())@\(domain)", protected: false)
    for _ in 0..<pick([0, 0, 0, 1, 2, 4]) {
      let protected = number(0...9) < 4
      string(
        depth + 1, key: word().capitalized + " " + word(), value: protected ? base64(24) : sentence(3),
        protected: protected)
    }
    line(depth + 1, "<AutoType>")
    line(depth + 2, "<Enabled>True</Enabled>")
    line(depth + 2, "<DataTransferObfuscation>0</DataTransferObfuscation>")
    line(depth + 1, "</AutoType>")
    if history {
      let count = pick([0, 0, 1, 1, 2, 3])
      if count == 0 {
        line(depth + 1, "<History />")
      } else {
        line(depth + 1, "<History>")
        for _ in 0..<count { entry(depth + 2, history: false) }
        line(depth + 1, "</History>")
      }
    }
    line(depth, "</Entry>")
  }

  mutating func group(_ depth: Int, targetBytes: Int, level: Int) {
    line(depth, "<Group>")
    line(depth + 1, "<UUID>\(base64(16))</UUID>")
    line(depth + 1, "<Name>\(word().capitalized)</Name>")
    line(depth + 1, "<Notes />")
    line(depth + 1, "<IconID>\(number(0...68))</IconID>")
    times(depth + 1)
    line(depth + 1, "<IsExpanded>True</IsExpanded>")
    for _ in 0..<number(5...40) where out.count < targetBytes { entry(depth + 1, history: true) }
    if level == 0 {
      // The root group keeps adding subtrees until the document reaches its target size.
      while out.count < targetBytes { group(depth + 1, targetBytes: targetBytes, level: level + 1) }
    } else if level < 3 {
      for _ in 0..<number(2...6) where out.count < targetBytes {
        group(depth + 1, targetBytes: targetBytes, level: level + 1)
      }
    }
    line(depth, "</Group>")
  }

  mutating func build(targetBytes: Int) -> [UInt8] {
    out.reserveCapacity(targetBytes + 65536)
    line(0, "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>")
    line(0, "<KeePassFile>")
    line(1, "<Meta>")
    line(2, "<Generator>kdbx-bench</Generator>")
    line(2, "<DatabaseName>Benchmark vault</DatabaseName>")
    line(2, "<CustomIcons>")
    for _ in 0..<4 {
      line(3, "<Icon>")
      line(4, "<UUID>\(base64(16))</UUID>")
      line(4, "<Data>\(base64(600))</Data>")
      line(3, "</Icon>")
    }
    line(2, "</CustomIcons>")
    line(1, "</Meta>")
    line(1, "<Root>")
    let bodyTarget = targetBytes - 64
    group(2, targetBytes: bodyTarget, level: 0)
    line(2, "<DeletedObjects />")
    line(1, "</Root>")
    line(0, "</KeePassFile>")
    return out
  }
}

extension String {
  fileprivate var capitalized: String {
    guard let first = first else { return self }
    return first.uppercased() + dropFirst()
  }
}

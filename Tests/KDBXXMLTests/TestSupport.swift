import KDBXXML
import VectorSupport

// Helpers shared by the KDBXXML tests.

/// All events of a document, or the error.
func events(_ text: String, options: XMLReader.Options = XMLReader.Options()) throws(XMLError) -> [XMLEvent] {
  var reader = XMLReader(bytes: Array(text.utf8), options: options)
  var all: [XMLEvent] = []
  while let event = try reader.next() { all.append(event) }
  return all
}

/// The error a document gives, or `nil` when it reads without error.
func readError(_ bytes: [UInt8], options: XMLReader.Options = XMLReader.Options()) -> XMLError? {
  var reader = XMLReader(bytes: bytes, options: options)
  do {
    while try reader.next() != nil {}
    return nil
  } catch {
    return error
  }
}

/// A KeePass-like document of about `targetBytes` bytes, built deterministically (a small cousin of the
/// benchmark's generator, which the tests cannot import).
func keePassLikeDocument(targetBytes: Int, seed: UInt64 = 7) -> [UInt8] {
  var random = SplitMix64(seed: seed)
  var out: [UInt8] = []
  out.reserveCapacity(targetBytes + 4096)
  let words = ["login", "server", "bank", "mail", "Café", "naïve", "日本", "a&b", "x<y", "q\"t"]
  func line(_ depth: Int, _ text: String) {
    out.append(contentsOf: repeatElement(0x09, count: depth))
    out.append(contentsOf: text.utf8)
    out.append(0x0A)
  }
  func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }
  func entry(_ depth: Int) {
    line(depth, "<Entry>")
    line(depth + 1, "<UUID>\(String(random.next(), radix: 36))==</UUID>")
    line(depth + 1, "<Times>")
    line(depth + 2, "<LastModificationTime>\(String(random.next(), radix: 16))</LastModificationTime>")
    line(depth + 2, "<Expires>False</Expires>")
    line(depth + 1, "</Times>")
    for key in ["Title", "Password", "Notes"] {
      let word = words[Int(random.next() % UInt64(words.count))]
      line(depth + 1, "<String>")
      line(depth + 2, "<Key>\(key)</Key>")
      let protected = key == "Password" ? " Protected=\"True\"" : ""
      line(depth + 2, "<Value\(protected)>\(escaped(word)) \(random.next() % 1000)</Value>")
      line(depth + 1, "</String>")
    }
    line(depth + 1, "<AutoType />")
    line(depth, "</Entry>")
  }
  line(0, "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>")
  line(0, "<KeePassFile>")
  line(1, "<Root>")
  var groups = 0
  while out.count < targetBytes {
    let depth = 2 + groups % 5
    line(depth, "<Group>")
    line(depth + 1, "<Name>Group \(groups)</Name>")
    for _ in 0..<20 { entry(depth + 1) }
    line(depth, "</Group>")
    groups += 1
  }
  line(1, "</Root>")
  line(0, "</KeePassFile>")
  return out
}

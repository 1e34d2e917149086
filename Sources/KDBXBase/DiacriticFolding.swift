/// Case and diacritic folding for search, over Unicode scalars and without Foundation.
///
/// Folding lowercases the text (the standard library's Unicode lowercase mapping, Unicode §3.13), replaces each
/// precomposed scalar by the base of its canonical decomposition (Unicode §3.7, UAX #15 NFD; the table is generated
/// from the Unicode Character Database, see `DiacriticFolding+Tables.swift`) and drops combining marks (U+0300–U+036F,
/// U+1AB0–U+1AFF, U+1DC0–U+1DFF, U+20D0–U+20FF, U+FE20–U+FE2F). So `"Crème"`, `"CRE\u{300}ME"` and `"creme"` fold
/// alike. Letters that have no canonical decomposition (`ø`, `ł`, `ß`) are kept.
package enum DiacriticFolding {
  /// The folded scalars of `text`.
  package static func fold(_ text: String) -> [Unicode.Scalar] {
    var out: [Unicode.Scalar] = []
    out.reserveCapacity(text.utf8.count)
    var allASCII = true
    for byte in text.utf8 where byte >= 0x80 {
      allASCII = false
      break
    }
    if allASCII {
      for byte in text.utf8 {
        let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        out.append(Unicode.Scalar(lower))
      }
      return out
    }
    for scalar in text.lowercased().unicodeScalars {
      if isCombiningMark(scalar.value) { continue }
      out.append(base(of: scalar))
    }
    return out
  }

  /// Whether `folded` contains `needle` (already folded) as a contiguous run. An empty needle always matches.
  package static func contains(_ folded: [Unicode.Scalar], _ needle: [Unicode.Scalar]) -> Bool {
    if needle.isEmpty { return true }
    guard folded.count >= needle.count else { return false }
    let first = needle[0]
    var start = 0
    let last = folded.count - needle.count
    while start <= last {
      if folded[start] == first {
        var offset = 1
        while offset < needle.count && folded[start + offset] == needle[offset] { offset += 1 }
        if offset == needle.count { return true }
      }
      start += 1
    }
    return false
  }

  /// Whether `text` contains `needle` ignoring case and diacritics.
  package static func matches(_ text: String, folded needle: [Unicode.Scalar]) -> Bool {
    contains(fold(text), needle)
  }

  /// Whether `value` is in one of the combining-mark blocks that folding drops.
  static func isCombiningMark(_ value: UInt32) -> Bool {
    (0x0300...0x036F).contains(value) || (0x1AB0...0x1AFF).contains(value) || (0x1DC0...0x1DFF).contains(value)
      || (0x20D0...0x20FF).contains(value) || (0xFE20...0xFE2F).contains(value)
  }

  /// The base scalar of a precomposed scalar, found by binary search in the generated table, or the scalar itself.
  static func base(of scalar: Unicode.Scalar) -> Unicode.Scalar {
    let value = scalar.value
    guard value >= 0xC0, value <= 0xFFFF else { return scalar }
    let key = UInt16(truncatingIfNeeded: value)
    let keys = decomposableScalars
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < key { low = middle + 1 } else { high = middle }
    }
    guard low < keys.count, keys[low] == key, low < baseScalars.count else { return scalar }
    return Unicode.Scalar(UInt32(baseScalars[low])) ?? scalar
  }
}

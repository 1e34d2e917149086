/// Byte counts in words for messages: "4 GiB", "1.5 GiB", "512 MiB", "8 KiB", "100 bytes" (binary units, one
/// decimal where it is not zero, rounded to the nearest tenth). Integer arithmetic only, without Foundation.
package enum ByteCountText {
  package static func describe(_ bytes: UInt64) -> String {
    let units: [(size: UInt64, name: String)] = [
      (1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB"),
    ]
    for unit in units where bytes >= unit.size {
      var whole = bytes / unit.size
      var tenths = ((bytes % unit.size) * 10 + unit.size / 2) / unit.size
      if tenths == 10 {
        whole += 1
        tenths = 0
      }
      return tenths == 0 ? "\(whole) \(unit.name)" : "\(whole).\(tenths) \(unit.name)"
    }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }
}

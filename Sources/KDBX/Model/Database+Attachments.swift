extension Database {
  /// The content of `attachment`, or `nil` when its index is outside the pool.
  public func data(of attachment: Attachment) -> [UInt8]? {
    binaries[attachment.binaryIndex]?.data
  }

  /// Adds `data` to the pool (reusing an identical binary) and returns an attachment named `name` that refers to it.
  public mutating func makeAttachment(name: String, data: [UInt8], isProtected: Bool = false) -> Attachment {
    Attachment(name: name, binaryIndex: binaries.add(data, isProtected: isProtected))
  }
}

/// Splits KeePass tag text: tags are separated by `;` or `,` (KeePass `StrUtil.StringToTags`), trimmed, and empty
/// tags are dropped.
public func splitTags(_ text: String?) -> [String] {
  guard let text else { return [] }
  var tags: [String] = []
  var current: [UInt8] = []
  func flush() {
    let tag = String(decoding: current, as: UTF8.self).trimmingASCIIWhitespace()
    if !tag.isEmpty { tags.append(tag) }
    current.removeAll()
  }
  for byte in text.utf8 {
    if byte == 0x3B || byte == 0x2C { flush() } else { current.append(byte) }
  }
  flush()
  return tags
}

extension Entry {
  /// The entry's tags, split from ``tags``.
  public var tagList: [String] { splitTags(tags) }
}

extension Group {
  /// The group's tags (KDBX 4.1), split from ``tags``.
  public var tagList: [String] { splitTags(tags) }
}

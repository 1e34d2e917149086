import KDBXCompression

/// Zip archives for the import tests, lies included (sizes, CRCs, flags, methods, overlapping members).
public enum ZipBuilder {
  public struct Member {
    public var name: String
    public var data: [UInt8]
    public var deflate = true
    public var declaredSize: Int? = nil
    public var crc: UInt32? = nil
    public var flags: UInt16 = 0
    public var method: UInt16? = nil

    public init(
      name: String, data: [UInt8], deflate: Bool = true, declaredSize: Int? = nil, crc: UInt32? = nil,
      flags: UInt16 = 0, method: UInt16? = nil
    ) {
      self.name = name
      self.data = data
      self.deflate = deflate
      self.declaredSize = declaredSize
      self.crc = crc
      self.flags = flags
      self.method = method
    }
  }

  /// A zip archive (APPNOTE: local headers, central directory, end record) with members as given, lies included.
  public static func archive(_ members: [Member], overlapSecond: Bool = false) -> [UInt8] {
    func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> ($0 * 8) & 0xFF) } }
    var out: [UInt8] = []
    var central: [UInt8] = []
    var offsets: [Int] = []
    for member in members {
      let stored = member.deflate ? Deflate.compress(member.data) : member.data
      let method = Int(member.method ?? (member.deflate ? 8 : 0))
      let crc = Int(member.crc ?? CRC32.checksum(member.data))
      let size = member.declaredSize ?? member.data.count
      let name = Array(member.name.utf8)
      let offset = overlapSecond && offsets.count == 1 ? offsets[0] : out.count
      offsets.append(offset)
      let fields =
        le16(20) + le16(Int(member.flags)) + le16(method) + le32(0) + le32(crc) + le32(stored.count)
        + le32(size) + le16(name.count) + le16(0)
      if !(overlapSecond && offsets.count == 2) { out += [0x50, 0x4B, 0x03, 0x04] + fields + name + stored }
      central +=
        [0x50, 0x4B, 0x01, 0x02] + le16(20) + fields + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset)
        + name
    }
    let directoryOffset = out.count
    out += central
    out +=
      [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(members.count) + le16(members.count)
      + le32(central.count) + le32(directoryOffset) + le16(0)
    return out
  }
}

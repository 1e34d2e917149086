import KDBXCompression

/// Why a zip archive was refused: what is wrong, and where (a byte offset in the archive) when it is known.
struct ZipError: Error {
  var reason: String
  var offset: Int?

  var description: String { offset.map { "\(reason) (at byte \($0))" } ?? reason }
}

/// A zip archive read from memory (PKWARE APPNOTE.TXT 6.3: end of central directory record, central directory,
/// local file headers), with stored (method 0) and deflated (method 8) members: the ones 1Password's `.1pux`
/// export uses. Deflate is our own ``Inflate``; each member's CRC-32 is checked.
///
/// Bounded against hostile archives: the member count, each member's and all members' uncompressed sizes are
/// limited before anything is inflated, inflation stops at the size the central directory declares (a "zip bomb"
/// cannot grow past it), members whose data overlap are refused (the overlapping-file bomb), and every offset and
/// length is checked against the archive's size. Zip64, encrypted members, multi-disk archives and other methods
/// are refused with a message.
struct ZipArchive {
  struct Limits {
    var maxMembers = 100_000
    var maxMemberBytes = 512 << 20
    var maxTotalBytes = 1 << 30
    /// Past this many bytes in all, the members may hold at most ``maxExpansion`` times the archive's size:
    /// what an archive inflates to is held in memory (and an attachment several times over while the vault is
    /// built and saved), so beyond a fixed allowance it is bounded by the input, not only by ``maxTotalBytes``.
    /// Real exports stay far within it: their JSON deflates about 10:1 and their attachments barely.
    var freeBytes = 256 << 20
    var maxExpansion = 16

    /// The most bytes the members of an archive of `archiveByteCount` bytes may hold in all.
    func allowance(archiveByteCount: Int) -> Int {
      let (scaled, overflow) = archiveByteCount.multipliedReportingOverflow(by: maxExpansion)
      let (sum, sumOverflow) = freeBytes.addingReportingOverflow(scaled)
      return overflow || sumOverflow ? maxTotalBytes : min(maxTotalBytes, sum)
    }
  }

  struct Member {
    var name: String
    var method: UInt16
    var crc: UInt32
    var compressedSize: Int
    var size: Int
    /// Where the member's compressed data starts (just past its local header).
    var dataOffset: Int
  }

  let bytes: [UInt8]
  let limits: Limits
  private(set) var members: [Member] = []

  /// Reads the archive's directory (the members' contents are read by ``contents(of:)``).
  init(_ bytes: [UInt8], limits: Limits = Limits()) throws(ZipError) {
    self.bytes = bytes
    self.limits = limits
    let end = try ZipArchive.endOfCentralDirectory(bytes)
    guard u16(end + 4) == 0, u16(end + 6) == 0, u16(end + 8) == u16(end + 10) else {
      throw ZipError(reason: "a multi-disk (split) zip archive, which is not read", offset: end)
    }
    let count = Int(u16(end + 10))
    let directorySize = Int(u32(end + 12))
    let directoryOffset = Int(u32(end + 16))
    // The Zip64 markers are compared as read (a UInt32 literal: `Int` is 32 bits on wasm32).
    if count == 0xFFFF || u32(end + 12) == UInt32.max || u32(end + 16) == UInt32.max {
      throw ZipError(reason: "a Zip64 archive (over 4 GiB or 65,535 members), which is not read", offset: end)
    }
    guard count <= limits.maxMembers else {
      throw ZipError(reason: "\(count) members, over the limit of \(limits.maxMembers)", offset: end)
    }
    guard directoryOffset <= end, directorySize <= end - directoryOffset else {
      throw ZipError(reason: "the central directory lies outside the archive", offset: end)
    }
    var position = directoryOffset
    let directoryEnd = directoryOffset + directorySize
    var total = 0
    var ranges: [(start: Int, end: Int, name: String)] = []
    for _ in 0..<count {
      guard directoryEnd - position >= 46, u32(position) == 0x0201_4B50 else {
        throw ZipError(reason: "a damaged central directory (no file header where one should be)", offset: position)
      }
      let flags = u16(position + 8)
      let method = u16(position + 10)
      let crc = u32(position + 16)
      let compressedSize = Int(u32(position + 20))
      let size = Int(u32(position + 24))
      let nameLength = Int(u16(position + 28))
      let extraLength = Int(u16(position + 30))
      let commentLength = Int(u16(position + 32))
      let localOffset = Int(u32(position + 42))
      let headerLength = 46 + nameLength + extraLength + commentLength
      guard directoryEnd - position >= headerLength else {
        throw ZipError(reason: "a central directory file header runs past the directory", offset: position)
      }
      let nameBytes = Array(bytes[(position + 46)..<(position + 46 + nameLength)])
      let name = String(decoding: nameBytes, as: UTF8.self)
      if u32(position + 20) == UInt32.max || u32(position + 24) == UInt32.max || u32(position + 42) == UInt32.max {
        throw ZipError(reason: "the member '\(name)' is Zip64 (over 4 GiB), which is not read", offset: position)
      }
      if flags & 1 != 0 { throw ZipError(reason: "the member '\(name)' is encrypted", offset: position) }
      guard method == 0 || method == 8 else {
        throw ZipError(
          reason: "the member '\(name)' uses compression method \(method); only stored (0) and deflate (8) are read",
          offset: position)
      }
      guard size <= limits.maxMemberBytes else {
        throw ZipError(
          reason: "the member '\(name)' is \(size) bytes, over the limit of \(limits.maxMemberBytes)", offset: position)
      }
      total += size
      guard total <= limits.maxTotalBytes else {
        throw ZipError(
          reason: "the members hold more than \(limits.maxTotalBytes) bytes in all (a zip bomb?)", offset: position)
      }
      if method == 0, compressedSize != size {
        throw ZipError(reason: "the stored member '\(name)' has different sizes", offset: position)
      }
      // The local header: its own name and extra field lengths may differ from the central directory's.
      guard localOffset <= directoryOffset, directoryOffset - localOffset >= 30, u32(localOffset) == 0x0403_4B50
      else {
        throw ZipError(reason: "the local header of '\(name)' is missing or outside the archive", offset: localOffset)
      }
      let dataOffset = localOffset + 30 + Int(u16(localOffset + 26)) + Int(u16(localOffset + 28))
      guard dataOffset <= directoryOffset, compressedSize <= directoryOffset - dataOffset else {
        throw ZipError(reason: "the data of '\(name)' runs past the archive's members", offset: localOffset)
      }
      ranges.append((localOffset, dataOffset + compressedSize, name))
      members.append(
        Member(
          name: name, method: method, crc: crc, compressedSize: compressedSize, size: size, dataOffset: dataOffset))
      position += headerLength
    }
    ranges.sort { $0.start < $1.start }
    for index in ranges.indices.dropFirst() where ranges[index].start < ranges[index - 1].end {
      throw ZipError(
        reason: "the members '\(ranges[index - 1].name)' and '\(ranges[index].name)' overlap (a zip bomb?)",
        offset: ranges[index].start)
    }
    let allowance = limits.allowance(archiveByteCount: bytes.count)
    guard total <= allowance else {
      throw ZipError(
        reason: "the members hold \(total) bytes in all, over \(limits.freeBytes) bytes and "
          + "\(limits.maxExpansion) times the archive's \(bytes.count) (a zip bomb?)", offset: end)
    }
  }

  /// The member named `name`, or `nil`.
  func member(named name: String) -> Member? { members.first { $0.name == name } }

  /// The uncompressed bytes of `member`: exactly its declared size, with its CRC-32 checked.
  func contents(of member: Member) throws(ZipError) -> [UInt8] {
    let compressed = Array(bytes[member.dataOffset..<(member.dataOffset + member.compressedSize)])
    var output: [UInt8]
    if member.method == 0 {
      output = compressed
    } else {
      do throws(CompressionError) {
        output = try Inflate.decompress(compressed, maxOutputByteCount: member.size)
      } catch .outputLimitExceeded {
        throw ZipError(
          reason: "the member '\(member.name)' inflates to more than its declared \(member.size) bytes",
          offset: member.dataOffset)
      } catch {
        throw ZipError(
          reason: "the member '\(member.name)' is damaged: \(error.failureClass)",
          offset: member.dataOffset + (error.offset ?? 0))
      }
    }
    guard output.count == member.size else {
      throw ZipError(
        reason: "the member '\(member.name)' inflates to \(output.count) bytes, not its declared \(member.size)",
        offset: member.dataOffset)
    }
    guard CRC32.checksum(output) == member.crc else {
      throw ZipError(reason: "the member '\(member.name)' fails its CRC-32 check", offset: member.dataOffset)
    }
    return output
  }

  /// The end of central directory record: searched backwards over the last 64 KiB + 22 bytes (its comment can be
  /// up to 65,535 bytes), and checked to end exactly where its comment ends.
  private static func endOfCentralDirectory(_ bytes: [UInt8]) throws(ZipError) -> Int {
    guard bytes.count >= 22 else { throw ZipError(reason: "too short to be a zip archive", offset: nil) }
    let lowest = max(0, bytes.count - 22 - 0xFFFF)
    var position = bytes.count - 22
    while position >= lowest {
      if bytes[position] == 0x50, bytes[position + 1] == 0x4B, bytes[position + 2] == 0x05,
        bytes[position + 3] == 0x06
      {
        let commentLength = Int(bytes[position + 20]) | Int(bytes[position + 21]) << 8
        if position + 22 + commentLength == bytes.count { return position }
      }
      position -= 1
    }
    throw ZipError(reason: "no end of central directory record: the zip archive is truncated or damaged", offset: nil)
  }

  private func u16(_ offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }

  private func u32(_ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
      | UInt32(bytes[offset + 3]) << 24
  }
}

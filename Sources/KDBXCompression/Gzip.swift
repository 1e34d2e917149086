/// The gzip file format (RFC 1952): a header, a raw DEFLATE stream, and a CRC-32 and ISIZE trailer.
///
/// ```swift
/// let packed = Gzip.compress(bytes, level: 6)
/// let unpacked = try Gzip.decompress(packed, maxOutputByteCount: 256 << 20)
/// ```
public enum Gzip {
  /// Optional gzip header fields (RFC 1952 §2.3.1).
  public struct Header: Sendable, Equatable {
    /// FNAME: the original file name, written zero-terminated (it must not contain a zero byte).
    public var name: [UInt8]?
    /// FCOMMENT: a comment, written zero-terminated (it must not contain a zero byte).
    public var comment: [UInt8]?
    /// FEXTRA: the extra field (at most 65535 bytes).
    public var extra: [UInt8]?
    /// MTIME: seconds since 1970-01-01 00:00:00 UTC, or 0 when unknown.
    public var modificationTime: UInt32
    /// FHCRC: whether a CRC-16 of the header follows it.
    public var hasHeaderCRC: Bool

    /// A header with the given fields; by default none of the optional fields.
    public init(
      name: [UInt8]? = nil, comment: [UInt8]? = nil, extra: [UInt8]? = nil, modificationTime: UInt32 = 0,
      hasHeaderCRC: Bool = false
    ) {
      self.name = name
      self.comment = comment
      self.extra = extra
      self.modificationTime = modificationTime
      self.hasHeaderCRC = hasHeaderCRC
    }
  }

  static let id1: UInt8 = 0x1F
  static let id2: UInt8 = 0x8B
  static let methodDeflate: UInt8 = 8
  static let flagText: UInt8 = 0x01
  static let flagHeaderCRC: UInt8 = 0x02
  static let flagExtra: UInt8 = 0x04
  static let flagName: UInt8 = 0x08
  static let flagComment: UInt8 = 0x10
  static let reservedFlags: UInt8 = 0xE0
  /// OS = 255: unknown (RFC 1952 §2.3.1).
  static let operatingSystemUnknown: UInt8 = 255

  /// Compresses `input` into one gzip member (RFC 1952 §2.2) at DEFLATE `level` 0...9.
  public static func compress(_ input: [UInt8], level: Int = 6, header: Header = Header()) -> [UInt8] {
    member(
      deflateStream: Deflate.compress(input, level: level), checksum: CRC32.checksum(input), byteCount: input.count,
      level: level, header: header)
  }

  /// One gzip member (RFC 1952 §2.2) around a raw DEFLATE stream that the caller compressed, for example in
  /// pieces on several cores with ``Deflate/compress(_:piece:level:isFinal:)``.
  /// - Parameters:
  ///   - deflateStream: the complete raw DEFLATE stream of the data.
  ///   - checksum: the CRC-32 of the uncompressed data (``CRC32/checksum(_:)``).
  ///   - byteCount: the size of the uncompressed data (stored modulo 2^32 as ISIZE).
  ///   - level: the DEFLATE level used, for the XFL field.
  public static func member(
    deflateStream: [UInt8], checksum: UInt32, byteCount: Int, level: Int = 6, header: Header = Header()
  ) -> [UInt8] {
    member(deflatePieces: [deflateStream], checksum: checksum, byteCount: byteCount, level: level, header: header)
  }

  /// ``member(deflateStream:checksum:byteCount:level:header:)`` for a DEFLATE stream given in pieces (compressed
  /// in parallel), copied once into the member.
  package static func member(
    deflatePieces: [[UInt8]], checksum: UInt32, byteCount: Int, level: Int = 6, header: Header = Header()
  ) -> [UInt8] {
    var out: [UInt8] = [id1, id2, methodDeflate, 0]
    var streamByteCount = 0
    for piece in deflatePieces { streamByteCount = streamByteCount.addingReportingOverflow(piece.count).partialValue }
    out.reserveCapacity(
      64 + (header.extra?.count ?? 0) + (header.name?.count ?? 0) + (header.comment?.count ?? 0) + streamByteCount)
    var flags: UInt8 = 0
    if header.hasHeaderCRC { flags |= flagHeaderCRC }
    if header.extra != nil { flags |= flagExtra }
    if header.name != nil { flags |= flagName }
    if header.comment != nil { flags |= flagComment }
    out[3] = flags
    appendLittleEndian(header.modificationTime, to: &out)
    // XFL: 2 = maximum compression, 4 = fastest (RFC 1952 §2.3.1).
    out.append(level >= 9 ? 2 : (level <= 1 ? 4 : 0))
    out.append(operatingSystemUnknown)
    if let extra = header.extra {
      precondition(extra.count <= 0xFFFF, "a gzip extra field holds at most 65535 bytes")
      out.append(UInt8(extra.count & 0xFF))
      out.append(UInt8(extra.count >> 8))
      out.append(contentsOf: extra)
    }
    for field in [header.name, header.comment] {
      if let field {
        precondition(!field.contains(0), "gzip name and comment fields are zero-terminated")
        out.append(contentsOf: field)
        out.append(0)
      }
    }
    if header.hasHeaderCRC {
      let crc = CRC32.checksum(out)
      out.append(UInt8(crc & 0xFF))
      out.append(UInt8((crc >> 8) & 0xFF))
    }
    for piece in deflatePieces { out.append(contentsOf: piece) }
    appendLittleEndian(checksum, to: &out)
    appendLittleEndian(UInt32(truncatingIfNeeded: byteCount), to: &out)
    return out
  }

  /// Decompresses every member of a gzip stream (RFC 1952 §2.2) and returns their joined contents.
  ///
  /// Each member's header is validated (ID1, ID2, CM = 8, reserved flags clear, FHCRC when
  /// present) and its CRC-32 and ISIZE trailer checked. Bytes after the last member that do not
  /// start another member are ``CompressionError/trailingGarbage(offset:)``.
  public static func decompress(
    _ input: [UInt8], maxOutputByteCount: Int = Int.max
  ) throws(CompressionError) -> [UInt8] {
    var output: [UInt8] = []
    var position = 0
    var first = true
    repeat {
      position = try skipHeader(input, at: position)
      // The last four bytes are the ISIZE of the last member: a good size hint for one member.
      var hint: Int? = nil
      if first && input.count - position >= 8 {
        hint = Int(readLittleEndian(input, at: input.count - 4))
      }
      first = false
      let before = output.count
      do {
        position = try Inflate.decompress(
          input, startingAt: position, appendingTo: &output, maxOutputByteCount: maxOutputByteCount - before,
          expectedOutputByteCount: hint)
      } catch .outputLimitExceeded {
        // Report the caller's limit, not what was left of it for this member.
        throw .outputLimitExceeded(limit: maxOutputByteCount)
      }
      guard input.count - position >= 8 else { throw .truncated(offset: input.count) }
      var crc = CRC32()
      crc.update(output, range: before..<output.count)
      if crc.value != readLittleEndian(input, at: position) { throw .checksumMismatch(offset: position) }
      if UInt32(truncatingIfNeeded: output.count - before) != readLittleEndian(input, at: position + 4) {
        throw .sizeMismatch(offset: position + 4)
      }
      position += 8
      if position < input.count && (input[position] != id1 || input.count - position < 2 || input[position + 1] != id2)
      {
        throw .trailingGarbage(offset: position)
      }
    } while position < input.count
    return output
  }

  /// Whether `input` is exactly one gzip member (RFC 1952 §2.2) whose content is `head` followed by `body`: a
  /// valid header, a DEFLATE stream that decodes to those bytes (checked as it decodes, without a copy of them:
  /// ``Inflate/verify(_:startingAt:expecting:_:)``), their CRC-32 and size in the trailer, and nothing after it.
  /// A save's read-back check compares its file with the document it wrote so.
  /// - Throws: what ``decompress(_:maxOutputByteCount:)`` throws for a malformed member.
  package static func verifyMember(
    _ input: [UInt8], expecting head: [UInt8], _ body: [UInt8]
  ) throws(CompressionError) -> Bool {
    let streamStart = try skipHeader(input, at: 0)
    guard var position = try Inflate.verify(input, startingAt: streamStart, expecting: head, body) else {
      return false
    }
    guard input.count - position >= 8 else { throw .truncated(offset: input.count) }
    var crc = CRC32()
    crc.update(head)
    crc.update(body)
    let (count, overflow) = head.count.addingReportingOverflow(body.count)
    guard !overflow, crc.value == readLittleEndian(input, at: position),
      UInt32(truncatingIfNeeded: count) == readLittleEndian(input, at: position + 4)
    else { return false }
    position += 8
    return position == input.count
  }

  /// Validates the member header at `start` (RFC 1952 §2.3) and returns the offset of the
  /// DEFLATE stream after it.
  static func skipHeader(_ input: [UInt8], at start: Int) throws(CompressionError) -> Int {
    guard input.count - start >= 10 else { throw .truncated(offset: input.count) }
    guard input[start] == id1, input[start + 1] == id2 else { throw .invalidHeader(offset: start) }
    guard input[start + 2] == methodDeflate else { throw .invalidHeader(offset: start + 2) }
    let flags = input[start + 3]
    guard flags & reservedFlags == 0 else { throw .invalidHeader(offset: start + 3) }
    var position = start + 10
    if flags & flagExtra != 0 {
      guard input.count - position >= 2 else { throw .truncated(offset: input.count) }
      let length = Int(input[position]) | Int(input[position + 1]) << 8
      position += 2
      guard input.count - position >= length else { throw .truncated(offset: input.count) }
      position += length
    }
    for flag in [flagName, flagComment] where flags & flag != 0 {
      while true {
        guard position < input.count else { throw .truncated(offset: input.count) }
        position += 1
        if input[position - 1] == 0 { break }
      }
    }
    if flags & flagHeaderCRC != 0 {
      guard input.count - position >= 2 else { throw .truncated(offset: input.count) }
      var crc = CRC32()
      crc.update(input, range: start..<position)
      let expected = UInt16(input[position]) | UInt16(input[position + 1]) << 8
      if UInt16(truncatingIfNeeded: crc.value) != expected { throw .checksumMismatch(offset: position) }
      position += 2
    }
    return position
  }

  static func appendLittleEndian(_ value: UInt32, to out: inout [UInt8]) {
    for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
  }

  static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
      | UInt32(bytes[offset + 3]) << 24
  }
}

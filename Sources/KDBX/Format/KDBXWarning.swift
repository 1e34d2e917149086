/// A harmless irregularity in a file that another application wrote, accepted by
/// `KDBXFile/open(bytes:key:primitives:random:options:)` only after the file's integrity was proven: in KDBX 4 the
/// header HMAC (the key) and every HMAC block; in KDBX 3.x the stream start bytes (the key) and every hashed block
/// through the terminating empty block. The irregular bytes lie outside the authenticated content, so the database
/// read is exactly what the writer stored. A save writes the file correctly, without them.
///
/// `OpenedDatabase/warnings` and `IntegrityReport/warnings` list them; `kdbx verify` prints each
/// ``description``.
package enum KDBXWarning: Sendable, Equatable, CustomStringConvertible {
  /// Bytes follow the end of the gzip member (RFC 1952 §2.2) inside the authenticated payload. A widely used Go
  /// library pads even ChaCha20 payloads PKCS#7-style, which leaves 1 to 16 bytes there; KeePassXC and pykeepass
  /// ignore them.
  case bytesAfterCompressedData(byteCount: Int)
  /// The last CBC block's PKCS#7 padding (RFC 5652 §6.3) is malformed, or absent when `byteCount` is 0;
  /// `byteCount` bytes of that block follow the end of the content (the hashed block stream's terminating block in
  /// KDBX 3.x, the gzip member in KDBX 4). pykeepass opens such files; KeePass 2 and KeePassXC refuse them.
  case malformedFinalPadding(byteCount: Int)

  /// What was found, in words, and what it means; it names no content of the file.
  package var description: String {
    switch self {
    case .bytesAfterCompressedData(let count):
      return "payload has \(count) \(count == 1 ? "byte" : "bytes") after the compressed data; "
        + "written by another application; harmless, and a save removes them"
    case .malformedFinalPadding(0):
      return "the last encrypted block has no padding; written by another application; "
        + "harmless, and a save pads it correctly"
    case .malformedFinalPadding(let count):
      return "the last encrypted block has malformed padding (\(count) \(count == 1 ? "byte" : "bytes") after the "
        + "content); written by another application; harmless, and a save pads it correctly"
    }
  }
}

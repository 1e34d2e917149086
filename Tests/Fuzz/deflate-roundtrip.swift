// Fuzz target: `Deflate.compress` (RFC 1951) at every level, whole or in pieces with the 32 KiB preset window
// (`Deflate.compress(_:piece:level:isFinal:)`, as the KDBX save does), and `Gzip` (RFC 1952) around it. The first
// two bytes pick the case, the rest is the data:
//   byte 0: level = byte % 10 (0 stores);
//   byte 1: bits 0..1: 0 one piece, 1 pieces cut where the data says, 2 the data repeated (matches reaching back
//           across the window and runs longer than 258), 3 gzip of pieces; bits 2..7: piece size unit (1...64 KiB).
// Properties: the stream inflates to the data (our inflate; gzip's CRC-32 and size checked), never grows past the
// stored-block bound, and the same input compresses to the same bytes twice.
import KDBXCompression

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 2 else { return 0 }
  let level = Int(data[0] % 10)
  let mode = data[1] & 3
  let unit = (Int(data[1] >> 2) + 1) * 1024
  var input = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
  if mode == 2 {
    // Repeat the data until it passes 80 KiB, with a changed byte in each copy.
    let original = input
    var copy = 0
    while !original.isEmpty && input.count < 80_000 {
      input += original
      copy += 1
      input[input.count - 1 - copy % original.count] ^= UInt8(truncatingIfNeeded: copy)
    }
  }

  var stream: [UInt8]
  if mode == 1 || mode == 3 {
    // Pieces: each cut is `unit` bytes times the value of the byte at the previous cut (at least one unit).
    stream = []
    var start = 0
    repeat {
      let step = unit * (input.isEmpty ? 1 : Int(input[start % input.count]) % 8 + 1)
      let end = min(start + step, input.count)
      stream += Deflate.compress(input, piece: start..<end, level: level, isFinal: end == input.count)
      start = end
    } while start < input.count
  } else {
    stream = Deflate.compress(input, level: level)
    if stream != Deflate.compress(input, level: level) { fatalError("deflate is not deterministic") }
  }
  // Stored blocks of at most 65535 bytes cost 5 bytes each, plus the sync flush of each piece (5 bytes) and slack.
  let bound = input.count + (input.count / 65535 + 1) * 5 + (input.count / unit + 2) * 5 + 8
  if level > 0 && stream.count > bound { fatalError("deflate output \(stream.count) B over the bound \(bound) B") }

  guard let back = try? Inflate.decompress(stream, maxOutputByteCount: input.count) else {
    fatalError("deflate output does not inflate")
  }
  if back != input { fatalError("deflate/inflate round trip differs") }
  if mode == 3 {
    let member = Gzip.member(
      deflateStream: stream, checksum: CRC32.checksum(input), byteCount: input.count, level: level)
    guard let unpacked = try? Gzip.decompress(member) else { fatalError("gzip member does not gunzip") }
    if unpacked != input { fatalError("gzip round trip differs") }
  }
  return 0
}

// Fuzz target: `Inflate.decompress` (raw DEFLATE, RFC 1951), `Inflate.decompress(_:startingAt:appendingTo:...)` and
// `Gzip.decompress` (RFC 1952), each with an output limit. The first byte picks the mode and the limit:
//   bit 0..1: 0 raw inflate, 1 gzip, 2 raw inflate after a prefix already in the output buffer, 3 both;
//   bit 2..4: output limit = 64 << (2 * n) bytes (64 B ... 1 MiB), so the limit path is exercised.
// Property: whatever decompresses, compressed again with `Deflate`/`Gzip` (level from the input), decompresses to the
// same bytes; and the output never exceeds the limit.
import KDBXCompression

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 1 else { return 0 }
  let mode = data[0]
  let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
  let limit = 64 << (2 * Int((mode >> 2) & 7))
  let level = Int(mode >> 5) + 1  // 1...8

  if mode & 3 == 0 || mode & 3 == 3 {
    if let out = try? Inflate.decompress(input, maxOutputByteCount: limit) {
      if out.count > limit { fatalError("inflate output over the limit") }
      let again = Deflate.compress(out, level: level)
      guard let back = try? Inflate.decompress(again, maxOutputByteCount: out.count) else {
        fatalError("deflate output does not inflate")
      }
      if back != out { fatalError("deflate/inflate round trip differs") }
    }
  }
  if mode & 3 == 1 || mode & 3 == 3 {
    if let out = try? Gzip.decompress(input, maxOutputByteCount: limit) {
      if out.count > limit { fatalError("gunzip output over the limit") }
      let again = Gzip.compress(out, level: level)
      guard let back = try? Gzip.decompress(again) else { fatalError("gzip output does not gunzip") }
      if back != out { fatalError("gzip round trip differs") }
    }
  }
  if mode & 3 == 2 {
    let prefix: [UInt8] = [0x41, 0x42, 0x43]
    var output = prefix
    let start = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
    do {
      let end = try Inflate.decompress(input, startingAt: start, appendingTo: &output, maxOutputByteCount: limit)
      if end < start || end > input.count { fatalError("end offset outside the input") }
      if output.count > prefix.count + limit { fatalError("appended output over the limit") }
      if Array(output[0..<prefix.count]) != prefix { fatalError("prefix changed") }
    } catch {
      if output != prefix { fatalError("failed inflate left bytes in the output") }
    }
  }
  return 0
}

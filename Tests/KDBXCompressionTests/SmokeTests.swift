import KDBXCompression
import Testing

@Test func smoke() throws {
  var random = SplitMix64(seed: 1)
  for size in [0, 1, 2, 5, 100, 1000, 100_000, 1_000_000] {
    let text = random.text(size)
    for level in 0...9 {
      let packed = Deflate.compress(text, level: level)
      let unpacked = try Inflate.decompress(packed)
      #expect(unpacked == text, "size \(size) level \(level)")
      if Interop.python != nil && size > 0 {
        let theirs = try Interop.python("out = zlib.decompress(data, -15)", input: packed)
        #expect(theirs == text, "python size \(size) level \(level)")
        let theirPacked = try Interop.python("out = zlib.compress(data, \(level))[2:-4]", input: text)
        #expect(try Inflate.decompress(theirPacked) == text)
        if level == 6 || level == 1 {
          print("size \(size) level \(level) ours \(packed.count) zlib \(theirPacked.count)")
        }
      }
    }
  }
}

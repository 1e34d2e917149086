// Fuzz target: the KDBX 3.1 `HashedBlockStream.read`. Even first byte: the rest is read as a block stream as is.
// Odd first byte: the rest is written as a stream with a small block size (second byte) and must read back equal;
// a copy with one byte changed (third byte picks it) must be read or refused, never trap.
import KDBX

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 3 else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  if bytes[0] & 1 == 0 {
    var options = LoadOptions()
    if bytes[0] & 2 != 0 { options.maxPayloadByteCount = Int(bytes[1]) * 16 }
    _ = try? HashedBlockStream.read(bytes, from: 1 + Int(bytes[0] >> 2) % 8, options: options)
    return 0
  }
  let payload = Array(bytes[3...])
  let stream = HashedBlockStream.write(payload, blockSize: Int(bytes[1]) + 1)
  guard (try? HashedBlockStream.read(stream)) == payload else { fatalError("hashed block stream round trip") }
  var mutated = stream
  if !mutated.isEmpty { mutated[Int(bytes[2]) % mutated.count] ^= 0x5A }
  _ = try? HashedBlockStream.read(mutated)
  return 0
}

// Fuzz target: the KDBX 4 inner header (`InnerHeader(parsing:)`); what parses must serialize and parse back equal.
import KDBX

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let header = try? InnerHeader(parsing: bytes) else { return 0 }
  precondition(header.byteCount <= bytes.count)
  guard let back = try? InnerHeader(parsing: header.serialized()) else {
    fatalError("serialized inner header does not parse")
  }
  if back.binaries != header.binaries || back.innerRandomStreamKey != header.innerRandomStreamKey {
    fatalError("inner header round trip differs")
  }
  return 0
}

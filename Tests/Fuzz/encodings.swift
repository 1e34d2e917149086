// Fuzz target: Base32 (strict and lenient), Base64 (strict and lenient) and Hex decoding. Whatever decodes must
// encode back to an input that decodes to the same bytes.
import KDBX
import KDBXBase

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let text = String(decoding: bytes, as: UTF8.self)
  if let decoded = Base32.decode(text) {
    guard Base32.decode(Base32.encode(decoded)) == decoded else { fatalError("Base32 round trip") }
  }
  if let decoded = Base32.decodeLenient(text) {
    guard
      Base32.decode(Base32.encode(decoded, padding: false)) == decoded
        || Base32.decodeLenient(Base32.encode(decoded, padding: false)) == decoded
    else { fatalError("Base32 lenient round trip") }
  }
  for options in [Base64.Options.strict, .lenient] {
    if let decoded = Base64.decode(utf8: bytes, options: options) {
      guard Base64.decode(Base64.encode(decoded)) == decoded else { fatalError("Base64 round trip") }
    }
    _ = Base64.decode(utf8: bytes[...], options: options)
  }
  if let decoded = Hex.decode(utf8: bytes) {
    guard Hex.decode(Hex.encode(decoded)) == decoded else { fatalError("Hex round trip") }
  }
  return 0
}

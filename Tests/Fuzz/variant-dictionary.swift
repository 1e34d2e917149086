// Fuzz target: `VariantDictionary(parsing:)` (KDBX 4 KDF parameters and public custom data). A dictionary that
// parses must serialize to bytes that parse to an equal dictionary.
import KDBX

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  guard let dictionary = try? VariantDictionary(parsing: bytes) else { return 0 }
  for item in dictionary.items { _ = dictionary[item.key] }
  guard let back = try? VariantDictionary(parsing: dictionary.serialized()), back == dictionary else {
    fatalError("VariantDictionary round trip differs")
  }
  return 0
}

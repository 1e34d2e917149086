// Fuzz target: the credential matcher's URL parser (`WebAddress`) and the public-suffix lookups on its host.
import KDBX
import KDBXAutoFill

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let address = WebAddress(text) else { return 0 }
  _ = address.effectivePort
  _ = address.hostIsIPAddress
  let suffixes = PublicSuffixList.builtIn
  _ = suffixes.publicSuffix(of: address.host)
  _ = suffixes.registrableDomain(of: address.host)
  return 0
}

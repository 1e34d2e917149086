// Fuzz target: the KDBX outer header (`OuterHeader(parsing:options:)`, which parses the KDF VariantDictionary and the
// public custom data), `KDBXFile.readHeader` (header hash and HMAC split) and `KDBXFile.readVersion`. A header that
// parses must serialize, and the serialized form must parse to an equal header.
import KDBX

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  _ = try? KDBXFile.readVersion(bytes: bytes)
  _ = try? KDBXFile.readHeader(bytes: bytes)
  guard let header = try? OuterHeader(parsing: bytes) else { return 0 }
  _ = header.challenge
  guard let again = try? header.serialized() else { return 0 }
  let reparsed: OuterHeader
  do { reparsed = try OuterHeader(parsing: again) } catch { fatalError("serialized header does not parse: \(error)") }
  if reparsed.kdf != header.kdf || reparsed.cipher != header.cipher { fatalError("header round trip differs") }
  return 0
}

// Fuzz target: the 1Password `.1pux` import through the public `VaultImport.read` (ZipArchive with its inflate,
// JSONReader, OnePasswordImport, ImportedVault), on inputs detected as a zip archive, then the save check of what it
// imported (`fuzzImport` in Support/ImportFuzzing.swift).
import KDBXImport

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  fuzzImport(Array(UnsafeBufferPointer(start: data, count: size)), as: .onePassword1PUX)
  return 0
}

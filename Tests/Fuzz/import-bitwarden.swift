// Fuzz target: the Bitwarden JSON import through the public `VaultImport.read` (JSONReader, BitwardenImport,
// ImportedVault, ImportedGroupTree), on inputs detected as Bitwarden JSON (starting with `{` or `[`), then the save
// check of what it imported (`fuzzImport` in Support/ImportFuzzing.swift).
import KDBXImport

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  fuzzImport(Array(UnsafeBufferPointer(start: data, count: size)), as: .bitwardenJSON)
  return 0
}

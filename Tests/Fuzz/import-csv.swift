// Fuzz target: the CSV import through the public `VaultImport.read` (CSVImport, ImportedVault, ImportedGroupTree),
// on inputs detected as CSV, then the save check of what it imported (`fuzzImport` in Support/ImportFuzzing.swift).
// An input whose first byte is 0x01 (still UTF-8 text) is read with a column mapping picked by its second byte,
// so that the mapping code is reached too (the two bytes stay in the file: a mapping must cope with them).
import KDBXImport

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var columns: [CSVField: CSVColumn] = [:]
  if size >= 2, bytes[0] == 0x01 {
    let pick = bytes[1]
    let fields = CSVField.allCases
    let field = fields[Int(pick & 0x0F) % fields.count]
    columns[field] =
      pick & 0x10 != 0 ? .number(Int(pick >> 5)) : .named(["title", "Group", "", "x"][Int(pick >> 5) & 3])
    if pick & 0x80 != 0 { columns[.password] = .number(2) }
  }
  fuzzImport(bytes, as: .csv, options: ImportOptions(csvColumns: columns))
  return 0
}

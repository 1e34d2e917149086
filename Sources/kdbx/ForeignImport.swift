import KDBX

/// Recognises another manager's export from its content and reads it (`kdbx import`).
enum ForeignImport {
  /// The vault read from `bytes` with the name of its format, or `nil` for a KeePass 2 XML file (read by the
  /// caller). Throws for a format recognised but not read, or malformed.
  static func read(_ bytes: [UInt8], source: String, columns: String?) throws(CLIError)
    -> (format: String, vault: ImportedVault)?
  {
    var start = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
    guard start < bytes.count else { throw .failure("\(source) is empty") }
    if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) {
      if columns != nil { throw .usage("--columns applies to CSV files only") }
      return ("1Password 1PUX", try OnePasswordImport.read(bytes, source: source))
    }
    switch bytes[start] {
    case 0x3C:  // '<': KeePass 2 XML
      if columns != nil { throw .usage("--columns applies to CSV files only") }
      return nil
    case 0x7B, 0x5B:  // '{' or '[': JSON
      if columns != nil { throw .usage("--columns applies to CSV files only") }
      return ("Bitwarden JSON", try BitwardenImport.read(bytes, source: source))
    default:
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw .failure("\(source) is not UTF-8 text: not a CSV, JSON or KeePass 2 XML export")
      }
      return ("CSV", try CSVImport.read(text, source: source, columns: columns))
    }
  }
}

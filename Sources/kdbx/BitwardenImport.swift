/// Bitwarden's unencrypted JSON export (placeholder until the reader is in).
enum BitwardenImport {
  static func read(_ text: String, source: String) throws(CLIError) -> ImportedVault {
    throw .failure("\(source) is JSON; Bitwarden JSON imports are not supported yet")
  }
}

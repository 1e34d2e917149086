/// Bitwarden's unencrypted JSON export: recognised by `kdbx import` and refused with a message until its reader is
/// written (issue #24 item 7; the fixture `bitwarden.json` of `Vectors/tools/import_fixtures.py` is ready for it).
enum BitwardenImport {
  static func read(_ text: String, source: String) throws(CLIError) -> ImportedVault {
    throw .failure(
      "\(source) is JSON (a Bitwarden export?); JSON imports are not supported yet: export to CSV and import that")
  }
}

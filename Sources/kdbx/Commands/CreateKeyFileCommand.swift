import KDBX
import KDBXCrypto
import KDBXXML

/// `kdbx create-key-file PATH`: writes a new key file of 32 random bytes in the KeePass XML format version 2.0
/// (hex key data with the first 4 bytes of its SHA-256 as a check, as KeePass 2.47+ and KeePassXC write it).
enum CreateKeyFileCommand {
  static let command = Command(
    name: "create-key-file", arguments: "PATH", summary: "Write a new random key file (KeePass XML 2.0).",
    section: .noVault,
    details: """
      Writes a new key file PATH (it must not exist; mode 0600) holding 32 random bytes in the KeePass XML
      key file format 2.0, which KeePass 2, KeePassXC and kdbx read. Use it with --key-file, with
      'kdbx create --key-file PATH' or 'kdbx db-edit FILE --set-key-file PATH'. Keep a copy: a vault that
      needs a lost key file cannot be opened.
      """,
    options: [],
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    try arguments.finish(maxPositionals: 1)
    let path = try arguments.positional(0, "PATH")
    var random = SystemRandomNumberGenerator()
    let key = KeyFile.generate(using: &random)
    var contents: [UInt8]
    do {
      contents = try XMLWriter.write(key.xmlVersion2Document(), options: .init(indentation: .tabs)) + [0x0a]
    } catch {
      throw .failure("cannot make a key file: \(error)")
    }
    defer { SecureBytes.wipe(&contents) }
    // The written bytes must read back as the same key, in the XML form (`==` compares the form and, in constant
    // time, the key).
    guard let reread = try? KeyFile(contents: contents), reread == key else {
      throw .failure("the key file made does not read back as the same key; nothing was written")
    }
    try Terminal.createFile(path, contents: contents)
    Terminal.out("Created key file \(path) (KeePass XML key file 2.0, 256 bits).\n")
  }
}

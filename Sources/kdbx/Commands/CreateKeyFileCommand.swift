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

  static func run(_ raw: [String]) throws(CLIError) {
    let arguments = try Arguments(raw, options: command.options)
    try arguments.finish(maxPositionals: 1)
    let path = try arguments.positional(0, "PATH")
    var random = SystemRandomNumberGenerator()
    var secret = [UInt8](repeating: 0, count: 32)
    for index in secret.indices { secret[index] = random.next() }
    defer { SecureBytes.wipe(&secret) }
    let key: KeyFile
    var contents: [UInt8]
    do {
      key = try KeyFile(contents: secret)
    } catch {
      throw .failure("cannot make a key file: \(error.description)")
    }
    do {
      contents = try XMLWriter.write(key.xmlVersion2Document(), options: .init(indentation: .tabs)) + [0x0a]
    } catch {
      throw .failure("cannot make a key file: \(error)")
    }
    defer { SecureBytes.wipe(&contents) }
    // The written bytes must read back as the same key, in the XML form.
    guard let reread = try? KeyFile(contents: contents), reread.format == .xmlVersion2,
      ConstantTime.equals(reread.keyBytes, key.keyBytes)
    else {
      throw .failure("the key file made does not read back as the same key; nothing was written")
    }
    try Terminal.createFile(path, contents: contents)
    Terminal.out("Created key file \(path) (KeePass XML key file 2.0, 256 bits).\n")
  }
}

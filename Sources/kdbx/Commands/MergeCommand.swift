import KDBX

/// `kdbx merge FILE OTHER... [--same-credentials] [--dry-run] [--keep-newer]`: merges other databases into FILE.
enum MergeCommand {
  static let help = """
    USAGE: kdbx merge FILE OTHER... [-s|--same-credentials] [--key-file-from PATH] [--no-password-from]
                      [-d|--dry-run] [--keep-newer] [--key-file PATH] [--no-password]
      Merges each OTHER database into FILE (KeePass/KeePassXC "Synchronize": newer versions win, older ones go to
      the history, deletions are applied) and saves FILE. --keep-newer applies no deletions, as keepassxc-cli's
      default mode. Without --same-credentials the password of each OTHER is read next (the following stdin line
      when piped). --dry-run only lists the changes.
    """

  static func run(_ raw: [String]) throws(CLIError) {
    var valueOptions = VaultAccess.valueOptions
    valueOptions.insert("--key-file-from")
    var arguments = try Arguments(raw, valueOptions: valueOptions)
    let same = arguments.flag("-s", "--same-credentials")
    let otherKeyFile = arguments.value("--key-file-from")
    let otherNoPassword = arguments.flag("--no-password-from")
    let dryRun = arguments.flag("-d", "--dry-run")
    let mode: DatabaseMerge.Mode = arguments.flag("--keep-newer") ? .keepNewer : .synchronize
    var vault = try VaultAccess.open(&arguments, forChange: !dryRun)
    try arguments.finish(maxPositionals: .max)
    let others = Array(arguments.positionals.dropFirst())
    guard !others.isEmpty else { throw .usage("missing OTHER database") }
    var total = 0
    for other in others {
      let remote: Database
      if same {
        remote = try VaultAccess.openBytes(try VaultAccess.readFile(other), key: vault.key).database
      } else {
        remote = try VaultAccess.open(path: other, keyFilePath: otherKeyFile, noPassword: otherNoPassword).database
      }
      let result = DatabaseMerge.synchronize(local: vault.database, remote: remote, mode: mode)
      total += result.report.changes.count
      Terminal.out("\(other): \(result.report.changes.count) change(s), \(result.report.conflicts.count) conflict(s)\n")
      if !dryRun { vault.database = result.database }
    }
    if dryRun {
      Terminal.out("Dry run: \(path(vault)) not changed.\n")
    } else if total > 0 {
      try vault.save()
      Terminal.out("Saved \(path(vault)).\n")
    } else {
      Terminal.out("Nothing to merge.\n")
    }
  }

  static func path(_ vault: VaultAccess) -> String { vault.path }
}

import KDBX
import KDBXBase
import KDBXCrypto
import KDBXFileIO
import KDBXPasskeys

/// `kdbx passkey ls|register|assert|export-public`: passkeys stored as KeePassXC stores them, and the WebAuthn
/// authenticator side for callers that are not a browser.
enum PasskeyCommand {
  static let command = Command(
    name: "passkey", arguments: "ls|register|assert|export-public FILE [ENTRY]",
    summary: "Passkeys as KeePassXC stores them: list, register, sign an assertion, export the public key.",
    section: .changing,
    details: """
      kdbx passkey ls FILE
      kdbx passkey register FILE GROUP/TITLE --rp ID --user NAME [--algorithm es256|eddsa] [--user-handle B64URL]
                            [--challenge B64URL --origin URL] [--no-uv] [--json]
      kdbx passkey assert FILE ENTRY --challenge B64URL --origin URL [--no-uv]
      kdbx passkey export-public FILE ENTRY [--json] [--show-protected]

      ls lists the passkeys outside the recycle bin: relying party, user, algorithm and entry path.
      register makes a new key pair and credential ID and stores them as KeePassXC does (KPEX_PASSKEY_*; the key,
      credential ID and user handle protected), on the entry GROUP/TITLE when it exists (its old version goes to
      the history) or on a new entry there, and saves. The user handle is 32 random bytes unless given. With
      --challenge and --origin it also prints the registration (attestation 'none') as WebAuthn's
      PublicKeyCredential JSON with --json.
      assert prints the assertion for the challenge and origin as WebAuthn's PublicKeyCredential JSON (the
      signature over authenticatorData || SHA-256(clientDataJSON), the user handle). The vault is not changed.
      export-public prints the public key as COSE (base64url) and PEM; --show-protected adds the private key.
      UV (user verified) is set unless --no-uv. An option of another subcommand is refused.
      """,
    options: [
      OptionSpec(["--rp"], value: "ID", "register: the relying party ID (a domain)."),
      OptionSpec(["--user"], value: "NAME", "register: the user name."),
      OptionSpec(["--algorithm"], value: "ALG", choices: ["es256", "eddsa"], "register: the key type (es256)."),
      OptionSpec(["--user-handle"], value: "B64URL", "register: the user handle (32 random bytes)."),
      OptionSpec(["--challenge"], value: "B64URL", "register, assert: the relying party's challenge."),
      OptionSpec(["--origin"], value: "URL", "register, assert: the origin of the page that asks."),
      OptionSpec(["--no-uv"], "register, assert: leave the user-verified flag unset."),
      OptionSpec(["--json"], "ls, register, export-public: print JSON."),
      OptionSpec(["-s", "--show-protected"], "export-public: print the private key too."),
    ] + CommandTable.changingVault,
    positionalChoices: ["ls", "register", "assert", "export-public"],
    run: run)

  /// The options only some subcommands take.
  static let optionsBySubcommand: [String: Set<String>] = [
    "ls": ["--json"],
    "register": [
      "--rp", "--user", "--algorithm", "--user-handle", "--challenge", "--origin", "--no-uv", "--json",
    ],
    "assert": ["--challenge", "--origin", "--no-uv", "--json"],
    "export-public": ["--json", "--show-protected"],
  ]

  static func run(_ raw: [String]) throws(CLIError) {
    guard let sub = raw.first else { throw .usage("kdbx passkey needs ls, register, assert or export-public") }
    guard let allowed = optionsBySubcommand[sub] else {
      throw .usage("unknown passkey command '\(sub)' (ls, register, assert, export-public)")
    }
    var arguments = try Arguments(Array(raw.dropFirst()), options: command.options)
    // An option of another subcommand is refused (and so read: the table's check sees every option asked for).
    for option in command.options.prefix(9) {
      guard let name = option.names.last, !allowed.contains(name) else { continue }
      var given = false
      for spelling in option.names
      where option.value == nil ? arguments.flag(spelling) : arguments.value(spelling) != nil {
        given = true
      }
      if given { throw .usage("\(name) does not apply to passkey \(sub)") }
    }
    switch sub {
    case "ls": try list(&arguments)
    case "register": try register(&arguments)
    case "assert": try assert(&arguments)
    default: try exportPublic(&arguments)
    }
  }

  static func fail(_ error: PasskeyError) -> CLIError { .failure(error.description) }

  static func path(_ stored: StoredPasskey) -> String { (stored.groupPath + [stored.title]).joined(separator: "/") }

  static func list(_ arguments: inout Arguments) throws(CLIError) {
    let json = arguments.flag("--json")
    let vault = try VaultAccess.open(&arguments, maxPositionals: 1)
    let stored = vault.database.passkeys()
    if json {
      let items: [JSONValue] = stored.map { item in
        var members: [(String, JSONValue)] = [
          ("uuid", .string(item.entryUUID.description)), ("path", .string(path(item))),
        ]
        switch item.passkey {
        case .success(let passkey):
          members += [
            ("relyingParty", .string(passkey.relyingParty)), ("userName", .string(passkey.userName)),
            ("algorithm", .string(passkey.algorithm.description)),
            ("coseAlgorithm", .number(Int(passkey.algorithm.rawValue))),
            ("backupEligible", .bool(passkey.isBackupEligible)), ("backedUp", .bool(passkey.isBackedUp)),
          ]
        case .failure(let error): members.append(("error", .string(error.description)))
        }
        return .object(members)
      }
      Terminal.out(JSONValue.array(items).rendered() + "\n")
      return
    }
    if stored.isEmpty {
      Terminal.out("No passkeys.\n")
      return
    }
    var out = ""
    for item in stored {
      switch item.passkey {
      case .success(let passkey):
        out += [passkey.relyingParty, passkey.userName, passkey.algorithm.description, path(item)]
          .map(TerminalText.line).joined(separator: "\t")
      case .failure(let error):
        out += ["?", "?", "unreadable (\(error))", path(item)].map(TerminalText.line).joined(separator: "\t")
      }
      out += "\n"
    }
    Terminal.out(out)
  }

  static func algorithm(_ text: String?) throws(CLIError) -> PasskeyAlgorithm {
    switch text?.lowercased() {
    case nil, "es256": return .es256
    case "eddsa", "ed25519": return .edDSA
    case "rs256": throw .failure("RS256 passkeys are kept in vaults, but not created (use es256 or eddsa)")
    case .some(let other): throw .usage("unknown algorithm '\(other)' (es256 or eddsa)")
    }
  }

  static func challenge(_ arguments: inout Arguments) throws(CLIError) -> (challenge: [UInt8], origin: String)? {
    let challengeText = arguments.value("--challenge")
    let origin = arguments.value("--origin")
    switch (challengeText, origin) {
    case (nil, nil): return nil
    case (.some(let text), .some(let origin)):
      guard text.utf8.count <= 4 * WebAuthnClientData.maximumChallengeByteCount,
        let bytes = Base64URL.decode(text)
      else {
        throw .failure(
          text.utf8.count > 4 * WebAuthnClientData.maximumChallengeByteCount
            ? "the challenge is longer than \(WebAuthnClientData.maximumChallengeByteCount) bytes"
            : "the challenge is not base64url")
      }
      return (bytes, origin)
    default: throw .usage("--challenge and --origin go together")
    }
  }

  static func register(_ arguments: inout Arguments) throws(CLIError) {
    let json = arguments.flag("--json")
    let noUV = arguments.flag("--no-uv")
    guard let rp = arguments.value("--rp") else { throw .usage("register needs --rp ID") }
    guard let user = arguments.value("--user") else { throw .usage("register needs --user NAME") }
    let algorithm = try algorithm(arguments.value("--algorithm"))
    var random = SystemRandomNumberGenerator()
    var handle: [UInt8]
    if let text = arguments.value("--user-handle") {
      guard let decoded = Base64URL.decode(text) else { throw .failure("the user handle is not base64url") }
      handle = decoded
    } else {
      handle = (0..<32).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }
    let ceremony = try challenge(&arguments)
    var vault = try VaultAccess.open(&arguments, forChange: true, maxPositionals: 2)
    let entryPath = try arguments.positional(1, "GROUP/TITLE")
    try StorableText.check(user, as: "the user name")
    let passkey: Passkey
    let registration: PasskeyRegistration?
    do {
      passkey = try Passkey.generate(
        relyingParty: rp, userName: user, userHandle: handle, algorithm: algorithm, random: &random)
      registration = try ceremony.map { (value) throws(PasskeyError) in
        try passkey.registration(challenge: value.challenge, origin: value.origin, userVerified: !noUV)
      }
    } catch { throw fail(error) }
    let parts = VaultAccess.split(entryPath)
    guard let title = parts.last else { throw .usage("the entry path '\(entryPath)' has no title") }
    try StorableText.check(title, as: "the title")
    let group = try vault.locateGroup(parts.dropLast().joined(separator: "/"))
    let existing = group.group.entries.filter { $0.title == title }
    let uuid: KDBXUUID
    let onExisting: Bool
    if existing.count > 1 {
      throw .failure("'\(entryPath)' names \(existing.count) entries")
    } else if let entry = existing.first {
      guard vault.database.setPasskey(passkey, onEntry: entry.uuid, clock: SystemClock()) else {
        throw .failure("cannot change '\(entryPath)'")
      }
      uuid = entry.uuid
      onExisting = true
    } else {
      guard
        let added = vault.database.addPasskeyEntry(
          passkey, title: title, to: group.position, clock: SystemClock(), random: &random)
      else { throw .failure("cannot add to '\(entryPath)'") }
      uuid = added
      onExisting = false
    }
    try vault.save()
    if json, let registration {
      Terminal.out(registration.publicKeyCredentialJSON + "\n")
    } else if json {
      Terminal.out(
        JSONValue.object([
          ("uuid", .string(uuid.description)), ("path", .string(entryPath)),
          ("credentialId", .string(Base64URL.encode(passkey.credentialID))),
          ("userHandle", .string(Base64URL.encode(passkey.userHandle))),
          ("algorithm", .string(passkey.algorithm.description)),
        ]).rendered() + "\n")
    } else {
      let verb = onExisting ? "Stored a passkey on" : "Added passkey entry"
      Terminal.out(
        TerminalText.line(
          "\(verb) \(entryPath) (\(uuid)): \(passkey.algorithm) for \(rp), user \(user), credential ID "
            + Base64URL.encode(passkey.credentialID)) + "\n")
    }
  }

  static func storedPasskey(_ vault: VaultAccess, _ reference: String) throws(CLIError) -> Passkey {
    let entry = try vault.entry(reference)
    let found: Passkey?
    do { found = try entry.passkey() } catch { throw fail(error) }
    guard let passkey = found else { throw .failure("'\(reference)' has no passkey") }
    return passkey
  }

  static func assert(_ arguments: inout Arguments) throws(CLIError) {
    _ = arguments.flag("--json")  // the output is JSON in any case
    let noUV = arguments.flag("--no-uv")
    guard let ceremony = try challenge(&arguments) else { throw .usage("assert needs --challenge and --origin") }
    let vault = try VaultAccess.open(&arguments, maxPositionals: 2)
    let reference = try arguments.positional(1, "ENTRY")
    let passkey = try storedPasskey(vault, reference)
    do {
      let assertion = try passkey.assertion(
        challenge: ceremony.challenge, origin: ceremony.origin, userVerified: !noUV)
      Terminal.out(assertion.publicKeyCredentialJSON + "\n")
    } catch { throw fail(error) }
  }

  static func exportPublic(_ arguments: inout Arguments) throws(CLIError) {
    let json = arguments.flag("--json")
    let showProtected = arguments.flag("-s", "--show-protected")
    let vault = try VaultAccess.open(&arguments, maxPositionals: 2)
    let reference = try arguments.positional(1, "ENTRY")
    let passkey = try storedPasskey(vault, reference)
    let key: COSEKey
    do { key = try passkey.publicKey() } catch { throw fail(error) }
    var members: [(String, JSONValue)] = [
      ("relyingParty", .string(passkey.relyingParty)), ("userName", .string(passkey.userName)),
      ("credentialId", .string(Base64URL.encode(passkey.credentialID))),
      ("userHandle", .string(Base64URL.encode(passkey.userHandle))),
      ("algorithm", .string(passkey.algorithm.description)), ("cose", .string(Base64URL.encode(key.encoded))),
      ("pem", .string(key.pemRepresentation)),
    ]
    if showProtected { members.append(("privateKeyPem", .string(passkey.protectedPrivateKeyPEM.reveal()))) }
    if json {
      Terminal.out(JSONValue.object(members).rendered() + "\n")
      return
    }
    var out = "COSE key (base64url): \(Base64URL.encode(key.encoded))\n\(key.pemRepresentation)"
    if !out.hasSuffix("\n") { out += "\n" }
    if showProtected {
      out += passkey.protectedPrivateKeyPEM.reveal()
      if !out.hasSuffix("\n") { out += "\n" }
    }
    Terminal.out(out)
  }
}

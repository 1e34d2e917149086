import KDBX
import KDBXBase

/// Entries for the exports: finding one, its one-time password, editing and adding.
enum WasmEdit {
  static func entry(_ vault: WasmVaults.Vault, _ uuid: KDBXUUID) throws(WasmFailure) -> Entry {
    guard let entry = vault.opened.database.entry(withUUID: uuid) else {
      throw WasmFailure(.badRequest, "no entry with UUID \(uuid.description)")
    }
    return entry
  }

  /// `{"code", "period", "remaining"}` at `unixTime`, from the entry's first valid OTP setting (KeePassXC's `otp`,
  /// KeePass's `TimeOtp-*` and `HmacOtp-*` fields).
  static func oneTimePassword(_ entry: Entry, at unixTime: Int64) throws(WasmFailure) -> [UInt8] {
    guard let generator = entry.oneTimePassword()?.generator else {
      throw WasmFailure(.badRequest, "the entry has no one-time password setting that can be read")
    }
    let period: JSONValue = generator.period.map { .number($0) } ?? .null
    let remaining: JSONValue = generator.secondsRemaining(at: unixTime).map { .number($0) } ?? .null
    let document = JSONValue.object([
      ("code", .string(generator.code(at: unixTime))), ("period", period), ("remaining", remaining),
    ])
    return Array(document.rendered(pretty: false).utf8)
  }

  /// Sets `fields` on the entry; the old version goes to its history (`Database.editEntry(_:clock:_:)`). A field
  /// is protected when it is `Password` or was protected before.
  static func edit(_ vault: inout WasmVaults.Vault, entry uuid: KDBXUUID, fields: [(String, String)])
    throws(WasmFailure)
  {
    try refuseKeePass1(vault)
    _ = try entry(vault, uuid)
    var random = SystemRandomNumberGenerator()
    let changed = vault.opened.database.editEntry(uuid, clock: HostClock()) { entry in
      for (name, value) in fields { set(&entry, name, value, random: &random) }
    }
    if !changed && vault.opened.database.positions(ofEntry: uuid).count > 1 {
      throw WasmFailure(.badRequest, "more than one entry has UUID \(uuid.description) (a damaged file)")
    }
  }

  /// A new entry in `group` (the root when `nil`) with `fields`; returns its UUID.
  static func add(_ vault: inout WasmVaults.Vault, group: KDBXUUID?, fields: [(String, String)]) throws(WasmFailure)
    -> KDBXUUID
  {
    try refuseKeePass1(vault)
    guard let target = group ?? vault.opened.database.root?.uuid else {
      throw WasmFailure(.badRequest, "the vault has no root group")
    }
    var random = SystemRandomNumberGenerator()
    var entry = Entry.new(clock: HostClock(), random: &random)
    for (name, value) in fields { set(&entry, name, value, random: &random) }
    guard vault.opened.database.addEntry(entry, to: target) else {
      throw WasmFailure(.badRequest, "no single group with UUID \(target.description)")
    }
    return entry.uuid
  }

  static func set(_ entry: inout Entry, _ name: String, _ value: String, random: inout SystemRandomNumberGenerator) {
    let protected = name == Entry.passwordField || (entry[field: name]?.isProtected ?? false)
    if protected {
      entry[field: name] = .protected(ProtectedValue(value, using: &random))
    } else {
      entry[field: name] = .plain(value)
    }
  }

  static func refuseKeePass1(_ vault: WasmVaults.Vault) throws(WasmFailure) {
    if vault.opened.isKeePass1 {
      throw WasmFailure(.readOnly, "a KeePass 1.x file is opened read-only")
    }
  }
}

import KDBX
import KDBXAutoFill
import KDBXBase

/// A password credential identity, one per entry and host: what an AutoFill extension registers with the system's
/// credential identity store (`ASPasswordCredentialIdentity`: a service identifier, a user name and a record
/// identifier).
public struct PasswordCredentialIdentity: Sendable, Equatable {
  /// The host the entry is for (lowercase, as ``KDBXAutoFill/CredentialMatcher`` compares hosts), from its `URL`
  /// field, its `KP2A_URL*` fields or its KeePassXC browser settings' allowed hosts.
  public var serviceIdentifier: String
  /// The entry's user name (references resolved).
  public var userName: String
  /// The entry's UUID, in its canonical text form (``KDBX/KDBXUUID/description``).
  public var recordIdentifier: String
}

/// A passkey credential identity (`ASPasskeyCredentialIdentity`: relying party, user name, credential ID, user
/// handle and record identifier).
public struct PasskeyCredentialIdentity: Sendable, Equatable {
  /// The relying party ID.
  public var relyingParty: String
  /// The passkey's user name.
  public var userName: String
  /// The credential ID.
  public var credentialID: [UInt8]
  /// The user handle.
  public var userHandle: [UInt8]
  /// The entry's UUID, in its canonical text form.
  public var recordIdentifier: String
}

/// The identities of a database for the system's credential identity store.
public struct CredentialIdentities: Sendable, Equatable {
  /// Password identities, in tree order, one per entry and host.
  public var passwords: [PasswordCredentialIdentity]
  /// Passkey identities, in tree order.
  public var passkeys: [PasskeyCredentialIdentity]
}

extension Database {
  /// The credential identities to register: for each entry AutoFill may offer (``KDBX/Database/matchCandidates(now:)``:
  /// not in the recycle bin, not expired at `now`, not in a group that turns searching off), a password identity
  /// per distinct host of its URLs (an entry with neither user name nor password, or a passkey entry without a
  /// password, gives none; `androidapp://` URLs and denied hosts are left out), and a passkey identity when it has
  /// a readable passkey with a credential ID.
  public func credentialIdentities(now: Timestamp) -> CredentialIdentities {
    var result = CredentialIdentities(passwords: [], passkeys: [])
    let candidates = matchCandidates(now: now)
    var entries: [KDBXUUID: Entry] = [:]
    for item in flatEntries where !item.isInRecycleBin {
      entries[item.entry.uuid] = entries[item.entry.uuid] ?? item.entry
    }
    let resolver = PlaceholderResolver(database: self)
    for candidate in candidates {
      guard let entry = entries[candidate.id] else { continue }
      let record = entry.uuid.description
      if let passkey = try? entry.passkey(), !passkey.credentialID.isEmpty {
        result.passkeys.append(
          PasskeyCredentialIdentity(
            relyingParty: passkey.relyingParty, userName: passkey.userName, credentialID: passkey.credentialID,
            userHandle: passkey.userHandle, recordIdentifier: record))
      }
      let userName = resolver.value(ofField: Entry.userNameField, for: entry)
      let hasPassword = !(entry[field: Entry.passwordField]?.reveal().isEmpty ?? true)
      // A passkey entry without a password (as KeePassXC creates them) is a passkey identity only.
      guard hasPassword || (!userName.isEmpty && !entry.hasPasskey) else { continue }
      let denied = Set(candidate.deniedHosts.map { $0.trimmingASCIIWhitespace().lowercased() })
      var seen: Set<String> = []
      for text in [candidate.url] + candidate.additionalURLs {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty, !trimmed.lowercased().hasPrefix(ServiceIdentifier.androidAppScheme),
          let host = ServiceIdentifier(trimmed)?.host, !host.isEmpty, !denied.contains(host), seen.insert(host).inserted
        else { continue }
        result.passwords.append(
          PasswordCredentialIdentity(serviceIdentifier: host, userName: userName, recordIdentifier: record))
      }
    }
    return result
  }
}

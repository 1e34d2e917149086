import KDBXCrypto

/// The byte encoding a KeePass 1.x master password was hashed in.
package enum KDB1PasswordEncoding: Sendable, Equatable, CaseIterable {
  /// Windows code page 1252, as KeePass 1.x for Windows hashes it.
  case windows1252
  /// ISO 8859-1, as KeePassX before 0.3.1 hashed it.
  case latin1
  /// UTF-8, as KeePassX before 0.2.2 hashed it (also the password bytes as given when they are not UTF-8).
  case utf8
}

/// What a KeePass 1.x file needs from a ``CompositeKey``: the SHA-256 of the password in each encoding worth
/// trying, and the key file's KeePass 1.x key, in zeroing storage.
///
/// It is kept here, beside the key, because the key keeps no password: the hashes are taken when the key is made.
/// The KeePass 1.x key schedule that uses them (`rawKeys()`) and the reader are in `KDBXImport`.
package struct KDB1KeyMaterial: Sendable {
  package struct Password: Sendable {
    package var encoding: KDB1PasswordEncoding
    package var hash: SecureBytes
  }

  /// SHA-256 of the password in CP-1252, then Latin-1, then UTF-8, each only when its bytes differ from the
  /// ones before (KeePassXC's `KeePass1Reader::testKeys` order); empty without a password.
  package var passwords: [Password]
  /// Whether the password is empty: KeePass 1.x then uses the key file alone (KeePassXC `KeePass1Key::rawKey`).
  package var passwordIsEmpty: Bool
  /// The key file's KeePass 1.x key (``KeyFile/keePass1KeyBytes``).
  package var keyFileKey: SecureBytes?
  /// Whether the key has a challenge-response component, which KeePass 1.x files cannot use.
  package var hasChallengeResponse: Bool

  init(passwordBytes: [UInt8]?, keyFile: KeyFile?, hasChallengeResponse: Bool) {
    var passwords: [Password] = []
    if let passwordBytes {
      var tried: [[UInt8]] = []
      func add(_ encoding: KDB1PasswordEncoding, _ bytes: inout [UInt8]) {
        if tried.contains(where: { ConstantTime.equals($0, bytes) }) {
          SecureBytes.wipe(&bytes)
          return
        }
        var digest = SHA256.hash(bytes).bytes
        passwords.append(Password(encoding: encoding, hash: SecureBytes(consuming: &digest)))
        tried.append(bytes)  // moved, so that the wipe below reaches the only copy
        bytes = []
      }
      if var windows = Windows1252.encode(utf8: passwordBytes) { add(.windows1252, &windows) }
      if var latin1 = Windows1252.encodeLatin1(utf8: passwordBytes) { add(.latin1, &latin1) }
      var utf8 = passwordBytes
      add(.utf8, &utf8)
      for index in tried.indices { SecureBytes.wipe(&tried[index]) }
    }
    self.passwords = passwords
    passwordIsEmpty = passwordBytes?.isEmpty ?? false
    keyFileKey = keyFile.map { SecureBytes($0.keePass1KeyBytes) }
    self.hasChallengeResponse = hasChallengeResponse
  }
}

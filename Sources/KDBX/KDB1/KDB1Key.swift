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
struct KDB1KeyMaterial: Sendable {
  struct Password: Sendable {
    var encoding: KDB1PasswordEncoding
    var hash: SecureBytes
  }

  /// SHA-256 of the password in CP-1252, then Latin-1, then UTF-8, each only when its bytes differ from the
  /// ones before (KeePassXC's `KeePass1Reader::testKeys` order); empty without a password.
  var passwords: [Password]
  /// Whether the password is empty: KeePass 1.x then uses the key file alone (KeePassXC `KeePass1Key::rawKey`).
  var passwordIsEmpty: Bool
  /// The key file's KeePass 1.x key (``KeyFile/keePass1KeyBytes``).
  var keyFileKey: SecureBytes?
  /// Whether the key has a challenge-response component, which KeePass 1.x files cannot use.
  var hasChallengeResponse: Bool

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

  /// One key to try: the 32 bytes KeePass 1.x gives AES-KDF, and the password encoding it used (`nil` for a key
  /// file alone).
  struct RawKey: Sendable {
    var encoding: KDB1PasswordEncoding?
    var key: SecureBytes
  }

  /// The keys to try, in order (KeePass 1.x `CPwManager::SetMasterKey`; KeePassXC `KeePass1Key::rawKey`):
  /// - password only: `SHA-256(password)`;
  /// - key file only, or with an empty password: the key file's key;
  /// - both: `SHA-256(SHA-256(password) ‖ key file key)`.
  ///
  /// Unlike KDBX, a single component is not hashed again. Empty without a password or key file.
  func rawKeys() -> [RawKey] {
    guard !passwords.isEmpty, !(keyFileKey != nil && passwordIsEmpty) else {
      return keyFileKey.map { [RawKey(encoding: nil, key: $0)] } ?? []
    }
    guard let keyFileKey else { return passwords.map { RawKey(encoding: $0.encoding, key: $0.hash) } }
    return passwords.map { password in
      var hasher = SHA256()
      // SAFETY: each closure lends the hasher the SecureBytes' own storage to read, and the hasher copies what it
      // needs into its state; no pointer outlives the closure.
      password.hash.withUnsafeBytes { hasher.update($0) }
      keyFileKey.withUnsafeBytes { hasher.update($0) }
      var digest = hasher.finalize().bytes
      return RawKey(encoding: password.encoding, key: SecureBytes(consuming: &digest))
    }
  }
}

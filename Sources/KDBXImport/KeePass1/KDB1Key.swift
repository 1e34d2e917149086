import KDBX
import KDBXCrypto

extension KDB1KeyMaterial {
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

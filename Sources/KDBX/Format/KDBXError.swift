import KDBXBase
import KDBXCompression
import KDBXCrypto
import KDBXXML

/// Errors thrown by the `KDBX` module: the codec, the key handling and the XML-to-model mapping.
///
/// A wrong key is reported as ``invalidCredentials`` only; a damaged file is reported with the header field, block
/// index or byte offset where the damage was found. Lower layers' errors are wrapped, not flattened. No case carries
/// secret data (keys, passwords, plaintext), and ``description`` never prints any.
///
/// An app maps it to an alert through its ``category``:
///
/// ```swift
/// do {
///   let opened = try await KDBXFile.open(bytes: fileBytes, key: CompositeKey(password: password))
///   show("Vault", opened.database.meta.databaseName ?? "")
/// } catch {
///   switch error.category {
///   case .wrongKey: show("Wrong password or key file", "Try again.")
///   case .damaged, .unsupported: show("Cannot open this file", error.description)
///   default: show("Cannot open the vault", error.description)
///   }
/// }
/// ```
public enum KDBXError: Error, Equatable, Sendable {
  /// The first signature is not KeePass's (`0x9AA2D903`): this is not a KeePass file.
  case notKeePassFile
  /// A KeePass 1.x `.kdb` file (second signature `0xB54BFB65`) given to the KDBX reader: `KDB1File` in `KDBXImport`
  /// reads it.
  case unsupportedKDB1
  /// A KeePass 2.x pre-release file (second signature `0xB54BFB66`).
  case unsupportedPreReleaseFormat
  /// A KDBX file whose major version this library does not know (for example 42.0, or 1.x).
  case unsupportedVersion(major: UInt16, minor: UInt16)
  /// The input ended early: reading `needed` bytes at byte `offset` went past the end.
  case truncated(offset: Int, needed: Int)
  /// An outer-header field is missing, has the wrong size or an invalid value.
  case malformedHeader(field: String, reason: String)
  /// An inner-header (KDBX 4) field is missing, has the wrong size or an invalid value.
  case malformedInnerHeader(field: String, reason: String)
  /// A KDBX 4 VariantDictionary is malformed at byte `offset` of the dictionary.
  case malformedVariantDictionary(offset: Int, reason: String)
  /// The cipher UUID in the header names no cipher this library supports.
  case unsupportedCipher(uuid: String)
  /// The KDF UUID in the KDF parameters names no KDF this library supports.
  case unsupportedKDF(uuid: String)
  /// The inner random stream algorithm is not supported (for example the legacy ArcFour variant).
  case unsupportedInnerRandomStream(id: UInt32)
  /// The compression algorithm ID is not supported.
  case unsupportedCompression(id: UInt32)
  /// The key does not open the file: the KDBX 4 header HMAC or the KDBX 3.1 stream start bytes did not match.
  case invalidCredentials
  /// A ``CachedVaultKey`` was made for other KDF parameters or another seed than the file's: another app saved
  /// the file (KeePass 2 and KeePassXC draw a new seed on every save), it is another vault, or a save asked for
  /// other KDF settings. Nothing was decrypted: unlock with the password and cache the new key.
  case cachedKeyIsStale
  /// The bytes given as a ``CachedVaultKey`` are not one (another format or version, truncated, damaged).
  case invalidCachedKey(reason: String)
  /// The KDBX 4 header SHA-256 stored after the header does not match the header bytes.
  case headerChecksumMismatch
  /// The KDBX 3.1 `Meta/HeaderHash` does not match the outer header bytes.
  case headerHashMismatch
  /// A block of the (HMAC or hashed) block stream failed its check or is malformed; `index` is the block index.
  case corruptedBlock(index: UInt64)
  /// A value read from the file is above a ``LoadOptions`` ceiling; `what` names the value.
  case limitExceeded(what: String, value: UInt64, limit: UInt64)
  /// The key derivation needs more memory than ``LoadOptions/availableMemoryBytes`` says the caller can give it
  /// (`availableBytes`), or the system did not supply it (a block-memory provider or its page mapping failed;
  /// `availableBytes` is then `nil`). Nothing was derived, and nothing says whether the key is right.
  case insufficientMemory(requiredBytes: UInt64, availableBytes: UInt64?)
  /// A key file could not be used; `reason` says why (never the key data).
  case invalidKeyFile(reason: String)
  /// Text in the database XML is not valid for its type (base64, hex, number, time, UUID...).
  case malformedValue(element: String, reason: String)
  /// The database XML does not have the KeePass document structure.
  case malformedDocument(path: String, reason: String)
  /// A primitive in `KDBXCrypto` rejected its input.
  case crypto(CryptoError)
  /// `KDBXCompression` rejected the compressed payload.
  case compression(CompressionError)
  /// `KDBXXML` rejected the database XML or an XML key file.
  case xml(XMLError)
  /// KeePass 1.x: the key is right (the content decrypts to KeePass 1.x records) but the content is damaged;
  /// `reason` says which check failed (content hash or padding).
  case damagedContent(reason: String)
  /// KeePass 1.x: a group or entry record of the decrypted content is malformed at byte `offset` of the content.
  case malformedRecord(offset: Int, reason: String)
  /// The operation was cancelled: its Task was cancelled, or a progress handler returned `false`. Nothing was
  /// written; the key derivation's memory is zeroed and released.
  case cancelled
  /// A save was asked of a database opened without part of its content (``LoadOptions/loadsAttachmentContents``
  /// or ``LoadOptions/loadsHistory`` off): writing it would drop what was not read.
  case incompleteDatabase(reason: String)
}

extension KDBXError: CustomStringConvertible {
  /// A one-line description naming the failure and where it happened. It never contains key material.
  public var description: String {
    switch self {
    case .cancelled: return "cancelled"
    case .notKeePassFile: return "not a KeePass file (bad signature)"
    case .unsupportedKDB1: return "a KeePass 1.x (.kdb) file, not KDBX (import it to KDBX)"
    case .unsupportedPreReleaseFormat: return "KeePass 2 pre-release files are not supported"
    case .unsupportedVersion(let major, let minor): return "unsupported KDBX version \(major).\(minor)"
    case .truncated(let offset, let needed): return "file truncated: \(needed) byte(s) needed at offset \(offset)"
    case .malformedHeader(let field, let reason): return "malformed header field \(field): \(reason)"
    case .malformedInnerHeader(let field, let reason): return "malformed inner header field \(field): \(reason)"
    case .malformedVariantDictionary(let offset, let reason):
      return "malformed variant dictionary at offset \(offset): \(reason)"
    case .unsupportedCipher(let uuid): return "unsupported cipher \(uuid)"
    case .unsupportedKDF(let uuid): return "unsupported key derivation function \(uuid)"
    case .unsupportedInnerRandomStream(let id): return "unsupported inner random stream \(id)"
    case .unsupportedCompression(let id): return "unsupported compression algorithm \(id)"
    case .invalidCredentials: return "invalid credentials (wrong password, key file or key)"
    case .cachedKeyIsStale:
      return "the cached key is for other key derivation settings than the file's (saved elsewhere since, or "
        + "another vault): unlock with the password"
    case .invalidCachedKey(let reason): return "invalid cached key: \(reason)"
    case .headerChecksumMismatch: return "header checksum mismatch (the header is corrupted)"
    case .headerHashMismatch: return "Meta/HeaderHash does not match the header (the header is corrupted)"
    case .corruptedBlock(let index): return "corrupted block \(index)"
    case .limitExceeded(let what, let value, let limit): return "\(what) \(value) exceeds the limit \(limit)"
    case .insufficientMemory(let required, let available):
      let text = "cannot reserve \(ByteCountText.describe(required)) for the key derivation"
      guard let available else { return text + " (the system refused the memory)" }
      return text + "; \(ByteCountText.describe(available)) available"
    case .invalidKeyFile(let reason): return "invalid key file: \(reason)"
    case .malformedValue(let element, let reason): return "malformed value in \(element): \(reason)"
    case .malformedDocument(let path, let reason): return "malformed database document at \(path): \(reason)"
    case .crypto(let error):
      switch error {
      case .invalidPadding: return "cryptographic error: invalid padding"
      case .invalidKeySize: return "cryptographic error: invalid key size"
      case .invalidNonceSize: return "cryptographic error: invalid IV or nonce size"
      case .invalidCiphertextLength(let length): return "cryptographic error: ciphertext length \(length)"
      case .invalidParameter(let name, let reason): return "cryptographic error: \(name): \(reason)"
      case .memoryLimitExceeded(let required, let limit):
        return "cryptographic error: needs \(required) bytes of memory, limit \(limit)"
      case .memoryUnavailable(let required):
        return "cannot reserve \(ByteCountText.describe(UInt64(clamping: required))) for the key derivation "
          + "(the system refused the memory)"
      case .counterOverflow: return "cryptographic error: stream counter overflow"
      case .cancelled: return "cancelled"
      }
    case .compression(let error):
      if case .outputLimitExceeded(let limit) = error { return "decompressed payload exceeds \(limit) bytes" }
      return "compressed payload damaged (\(error.failureClass)) at offset \(error.offset ?? 0)"
    case .xml(let error): return error.description
    case .damagedContent(let reason): return "KeePass 1.x content damaged: \(reason)"
    case .malformedRecord(let offset, let reason): return "malformed KeePass 1.x record at offset \(offset): \(reason)"
    case .incompleteDatabase(let reason): return "cannot save a database opened without \(reason): it would be lost"
    }
  }
}

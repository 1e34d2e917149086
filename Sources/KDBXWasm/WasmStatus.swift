import KDBX
import KDBXCrypto

/// The status every exported function returns: 0 for success, otherwise what went wrong. With a non-zero status
/// the result buffer (``WasmResult``) holds the message in words, UTF-8.
enum WasmStatus: Int32 {
  case ok = 0
  /// The password or key file is wrong (the file itself looks sound).
  case wrongKey = 1
  /// The file is damaged: truncated, a block or checksum that does not match, content that cannot be read.
  case damaged = 2
  /// Not a KeePass file at all.
  case notKeePass = 3
  /// A KeePass file in a version, cipher, KDF or compression this library does not read.
  case unsupported = 4
  /// The file asks for more memory or work than the module allows (KDF memory, payload size).
  case limitExceeded = 5
  /// The key file cannot be used.
  case badKeyFile = 6
  /// The host's progress callback asked to stop.
  case cancelled = 7
  /// The call itself is wrong: unknown handle, entry or group, text that is not UTF-8 or cannot be stored.
  case badRequest = 8
  /// The vault cannot be saved (a KeePass 1.x file, which is read-only, or one opened without all its content).
  case readOnly = 9
  /// The library's known-answer self-test failed: this build computes something wrongly.
  case selfTestFailed = 10
  /// The module's memory cap was reached.
  case outOfMemory = 11

  /// The status for a library error.
  static func of(_ error: KDBXError) -> WasmStatus {
    switch error {
    case .invalidCredentials, .cachedKeyIsStale: return .wrongKey
    case .invalidCachedKey: return .badKeyFile
    case .notKeePassFile, .unsupportedPreReleaseFormat: return .notKeePass
    case .unsupportedKDB1, .unsupportedVersion, .unsupportedCipher, .unsupportedKDF, .unsupportedInnerRandomStream,
      .unsupportedCompression:
      return .unsupported
    case .limitExceeded: return .limitExceeded
    case .insufficientMemory: return .outOfMemory
    case .invalidKeyFile: return .badKeyFile
    case .cancelled: return .cancelled
    case .incompleteDatabase: return .readOnly
    case .crypto(let crypto):
      switch crypto {
      case .memoryLimitExceeded: return .limitExceeded
      case .memoryUnavailable: return .outOfMemory
      case .cancelled: return .cancelled
      default: return .damaged
      }
    case .truncated, .malformedHeader, .malformedInnerHeader, .malformedVariantDictionary, .headerChecksumMismatch,
      .headerHashMismatch, .corruptedBlock, .malformedValue, .malformedDocument, .compression, .xml, .damagedContent,
      .malformedRecord:
      return .damaged
    }
  }
}

/// A failure of an exported call: the status and the message the host shows.
struct WasmFailure: Error {
  var status: WasmStatus
  var message: String

  init(_ status: WasmStatus, _ message: String) {
    self.status = status
    self.message = message
  }

  init(_ error: KDBXError) {
    self.init(WasmStatus.of(error), error.description)
  }
}

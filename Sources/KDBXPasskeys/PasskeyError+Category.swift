import KDBX
import KDBXCrypto

extension PasskeyError {
  /// Which alert this error calls for (see `KDBX.VaultErrorCategory`): a passkey entry whose stored attributes are
  /// broken is `.damaged`; arguments that do not fit (a relying party, an origin, a challenge) are
  /// `.invalidRequest`; key kinds and algorithms this library does not sign with are `.unsupported`.
  public var category: VaultErrorCategory {
    switch self {
    case .missingAttribute, .notBase64URL, .malformedCOSEKey: return .damaged
    case .invalidRelyingParty, .invalidUserHandle, .invalidCredentialID, .invalidChallenge, .originMismatch:
      return .invalidRequest
    case .unsupportedAlgorithm: return .unsupported
    case .key(let error):
      switch error {
      case .unsupportedAlgorithm, .unsupportedCurve: return .unsupported
      case .invalidPrivateKey, .invalidPublicKey, .invalidSignatureEncoding, .malformedDER, .malformedPEM,
        .keyTypeMismatch:
        return .damaged
      }
    case .cbor(let error):
      switch error {
      case .tooDeep, .tooLarge: return .tooLarge
      case .unsupported: return .unsupported
      case .truncated: return .damaged
      }
    }
  }
}

import KDBX
import KDBXBase

/// The fixed 124-byte header of a KeePass 1.x (`.kdb`) file, all integers little-endian (KeePass 1.x
/// `PW_DBHEADER` in `PwStructs.h`; KeePassXC `KeePass1Reader::readDatabase`):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | signature 1, `0x9AA2D903` (shared with KDBX) |
/// | 4 | 4 | signature 2, `0xB54BFB65` |
/// | 8 | 4 | flags: 1 SHA-2, 2 Rijndael (AES), 4 ARC4, 8 Twofish |
/// | 12 | 4 | file version, `0x0003xxxx` (KeePass 1.x writes `0x00030004`, KeePassX `0x00030002`) |
/// | 16 | 16 | master seed |
/// | 32 | 16 | encryption IV |
/// | 48 | 4 | number of groups |
/// | 52 | 4 | number of entries |
/// | 56 | 32 | SHA-256 of the decrypted content (without padding) |
/// | 88 | 32 | transform seed (the AES-KDF key) |
/// | 120 | 4 | transform rounds |
///
/// The header is not authenticated: only the content hash protects the content, and the counts are checked
/// against the content while it is read.
package struct KDB1Header: Sendable, Equatable {
  /// The size of the header; the encrypted content follows it.
  package static let byteCount = 124
  /// Flag bit: the content is encrypted with AES-256 (Rijndael) in CBC mode.
  package static let flagRijndael: UInt32 = 2
  /// Flag bit: the content is encrypted with ARC4 (KeePass 1.x never wrote it; not supported).
  package static let flagARCFour: UInt32 = 4
  /// Flag bit: the content is encrypted with Twofish-256 in CBC mode.
  package static let flagTwofish: UInt32 = 8
  /// The file versions read: those whose bits above the lowest byte are `0x000300`, as KeePassXC checks
  /// (`FILE_VERSION_CRITICAL_MASK`); older ones are KeePass 0.x formats.
  package static let versionCriticalMask: UInt32 = 0xFFFF_FF00
  package static let version3: UInt32 = 0x0003_0000

  /// The flags field as read.
  package var flags: UInt32
  /// The file version as read.
  package var version: UInt32
  /// The 16-byte master seed: the cipher key is `SHA-256(masterSeed ‖ transformed key)`.
  package var masterSeed: [UInt8]
  /// The 16-byte CBC initialization vector.
  package var encryptionIV: [UInt8]
  /// The number of group records.
  package var groupCount: UInt32
  /// The number of entry records (meta-stream entries included).
  package var entryCount: UInt32
  /// SHA-256 of the decrypted content: KeePass 1.x's only check of the key and the content.
  package var contentHash: [UInt8]
  /// The 32-byte AES-KDF seed.
  package var transformSeed: [UInt8]
  /// The AES-KDF rounds.
  package var transformRounds: UInt32
  /// The content cipher the flags select (Rijndael first, as KeePass 1.x checks them).
  package var cipher: CipherAlgorithm

  /// The key derivation as KDBX names it: AES-KDF with the transform seed and rounds.
  package var kdf: KDFParameters {
    .aesKDF(AESKDFParameters(rounds: UInt64(transformRounds), seed: transformSeed))
  }

  /// Whether `bytes` start with the KeePass 1.x signatures.
  package static func hasSignature(_ bytes: [UInt8]) -> Bool {
    var reader = ByteReader(bytes)
    guard let first = try? reader.readUInt32(), let second = try? reader.readUInt32() else { return false }
    return first == FormatConstants.signature1 && second == FormatConstants.signature2KDB1
  }

  /// Parses the header at the start of `bytes` and checks the rounds against `options`.
  ///
  /// Throws ``KDBXError/notKeePassFile`` without the KeePass 1.x signatures, ``KDBXError/truncated(offset:needed:)``
  /// for a file shorter than the header, ``KDBXError/malformedHeader(field:reason:)`` for an unknown cipher or
  /// version, and ``KDBXError/limitExceeded(what:value:limit:)`` for too many rounds.
  package init(parsing bytes: [UInt8], options: LoadOptions = .default) throws(KDBXError) {
    guard KDB1Header.hasSignature(bytes) else { throw .notKeePassFile }
    var reader = ByteReader(bytes, offset: 8)
    flags = try reader.readUInt32()
    version = try reader.readUInt32()
    masterSeed = try reader.readBytes(16)
    encryptionIV = try reader.readBytes(16)
    groupCount = try reader.readUInt32()
    entryCount = try reader.readUInt32()
    contentHash = try reader.readBytes(32)
    transformSeed = try reader.readBytes(32)
    transformRounds = try reader.readUInt32()
    if flags & KDB1Header.flagRijndael != 0 {
      cipher = .aes256
    } else if flags & KDB1Header.flagTwofish != 0 {
      cipher = .twofish
    } else {
      throw .malformedHeader(
        field: "Flags", reason: "no supported cipher (flags \(KDB1Header.hex(flags)); KeePass 1.x uses AES or Twofish)")
    }
    guard version & KDB1Header.versionCriticalMask == KDB1Header.version3 else {
      throw .malformedHeader(
        field: "Version",
        reason: "unsupported KeePass 1.x file version \(KDB1Header.hex(version)) (0x0003xxxx files are read)")
    }
    guard UInt64(transformRounds) <= options.maxAESKDFRounds else {
      throw .limitExceeded(what: "AES-KDF rounds", value: UInt64(transformRounds), limit: options.maxAESKDFRounds)
    }
  }

  static func hex(_ value: UInt32) -> String { "0x" + Hex.encode(UInt64(value), minimumDigits: 8) }
}

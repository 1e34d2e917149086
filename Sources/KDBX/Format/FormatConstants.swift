// Every wire constant of the KDBX container, defined once. Sources: the KDBX 4.1 specification
// (keepass.info/help/kb/kdbx.html), KeePass 2.x `KdbxFile.cs` constants as documented there, and KeePassXC's
// `KeePass2.h` for the second AES-KDF UUID.

import KDBXBase

/// File signatures and fixed byte strings of the outer container.
package enum FormatConstants {
  /// First signature, shared by KeePass 1.x and 2.x files (bytes `03 D9 A2 9A`).
  package static let signature1: UInt32 = 0x9AA2_D903
  /// Second signature of KDBX files (bytes `67 FB 4B B5`).
  package static let signature2KDBX: UInt32 = 0xB54B_FB67
  /// Second signature of KeePass 2.x pre-release files.
  package static let signature2PreRelease: UInt32 = 0xB54B_FB66
  /// Second signature of KeePass 1.x `.kdb` files.
  package static let signature2KDB1: UInt32 = 0xB54B_FB65

  /// Version field values (`major << 16 | minor`).
  package static let version2_0: UInt32 = 0x0002_0000
  package static let version3_0: UInt32 = 0x0003_0000
  package static let version3_1: UInt32 = 0x0003_0001
  package static let version4_0: UInt32 = 0x0004_0000
  package static let version4_1: UInt32 = 0x0004_0001

  /// The data KeePass writes in the end-of-header field (`\r\n\r\n`).
  package static let endOfHeaderData: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

  /// The size of the master seed (header field 4).
  package static let masterSeedByteCount = 32
  /// The size of the KDBX 3.1 AES-KDF transform seed (header field 5).
  package static let transformSeedByteCount = 32
  /// The size of the KDBX 3.1 stream start bytes (header field 9).
  package static let streamStartBytesByteCount = 32
  /// The block size of the KDBX 3.1 hashed block stream that KeePass writes (1 MiB).
  package static let hashedBlockSize = 1_048_576
  /// The block size of the KDBX 4 HMAC block stream that KeePass writes (1 MiB).
  package static let hmacBlockSize = 1_048_576
  /// The block index whose HMAC key authenticates the KDBX 4 header (`UInt64.max`).
  package static let headerHMACBlockIndex = UInt64.max
  /// The block size of AES and Twofish in CBC mode, the most PKCS#7 padding a payload carries.
  static let cbcBlockByteCount = 16
}

/// Outer header field IDs (KDBX 4.1 specification, "Header"). Fields 5, 6, 8, 9 and 10 exist only in KDBX 3.x;
/// fields 11 and 12 only in KDBX 4.x.
package enum OuterHeaderFieldID: UInt8, Sendable, CaseIterable {
  case endOfHeader = 0
  case comment = 1
  case cipherID = 2
  case compressionFlags = 3
  case masterSeed = 4
  case transformSeed = 5
  case transformRounds = 6
  case encryptionIV = 7
  case protectedStreamKey = 8
  case streamStartBytes = 9
  case innerRandomStreamID = 10
  case kdfParameters = 11
  case publicCustomData = 12

  /// The field's name in the specification, used in error messages.
  package var name: String {
    switch self {
    case .endOfHeader: return "EndOfHeader"
    case .comment: return "Comment"
    case .cipherID: return "CipherID"
    case .compressionFlags: return "CompressionFlags"
    case .masterSeed: return "MasterSeed"
    case .transformSeed: return "TransformSeed"
    case .transformRounds: return "TransformRounds"
    case .encryptionIV: return "EncryptionIV"
    case .protectedStreamKey: return "ProtectedStreamKey"
    case .streamStartBytes: return "StreamStartBytes"
    case .innerRandomStreamID: return "InnerRandomStreamID"
    case .kdfParameters: return "KdfParameters"
    case .publicCustomData: return "PublicCustomData"
    }
  }
}

/// KDBX 4 inner header field IDs (KDBX 4.1 specification, "Inner Header").
package enum InnerHeaderFieldID: UInt8, Sendable, CaseIterable {
  case endOfHeader = 0
  case innerRandomStreamID = 1
  case innerRandomStreamKey = 2
  case binary = 3

  /// The field's name in the specification, used in error messages.
  package var name: String {
    switch self {
    case .endOfHeader: return "EndOfHeader"
    case .innerRandomStreamID: return "InnerRandomStreamID"
    case .innerRandomStreamKey: return "InnerRandomStreamKey"
    case .binary: return "Binary"
    }
  }
}

/// Flag bits of an inner-header binary (the byte before the binary's data).
package enum InnerBinaryFlags {
  /// The binary should be kept protected in memory.
  package static let protected: UInt8 = 0x01
}

/// The payload compression algorithm (header field 3, a `UInt32`).
///
/// ```swift
/// var settings = SaveSettings(keeping: opened)
/// settings.compression = .none  // KeePass's "None": no gzip, a larger file
/// let saved = try await KDBXFile.save(opened.database, key: key, settings: settings)
/// ```
public enum CompressionAlgorithm: UInt32, Sendable, CaseIterable {
  case none = 0
  case gzip = 1
}

/// The algorithm of the inner random stream that protects values in the XML (KDBX 3 header field 10, KDBX 4 inner
/// header field 1).
package enum InnerRandomStreamAlgorithm: UInt32, Sendable, CaseIterable {
  case none = 0
  /// KeePass's legacy ArcFour variant; not supported.
  case arcFourVariant = 1
  case salsa20 = 2
  case chaCha20 = 3
}

/// The outer payload cipher (header field 2).
///
/// ```swift
/// var settings = SaveSettings(keeping: opened)
/// settings.cipher = .chaCha20  // the cipher the user chose in the vault's settings
/// let saved = try await KDBXFile.save(opened.database, key: key, settings: settings)
/// ```
public enum CipherAlgorithm: Sendable, Hashable, CaseIterable {
  /// AES-256 in CBC mode with PKCS#7 padding.
  case aes256
  /// ChaCha20 (RFC 8439 block function, 96-bit nonce).
  case chaCha20
  /// Twofish-256 in CBC mode with PKCS#7 padding (KeePass plugin, built into KeePassXC).
  case twofish

  /// The cipher UUID written in header field 2.
  package var uuid: KDBXUUID {
    switch self {
    case .aes256: return KnownUUIDs.aes256
    case .chaCha20: return KnownUUIDs.chaCha20
    case .twofish: return KnownUUIDs.twofish
    }
  }

  /// The size of the encryption IV (header field 7): 16 for the CBC ciphers, 12 for ChaCha20.
  package var ivByteCount: Int {
    switch self {
    case .aes256, .twofish: return 16
    case .chaCha20: return 12
    }
  }

  /// The cipher with UUID `uuid`, or `nil`.
  package init?(uuid: KDBXUUID) {
    guard let match = CipherAlgorithm.allCases.first(where: { $0.uuid == uuid }) else { return nil }
    self = match
  }
}

/// The key derivation function named by the `$UUID` KDF parameter.
package enum KDFAlgorithm: Sendable, Hashable, CaseIterable {
  /// AES-KDF under the UUID KeePass 2 writes in every version, `c9d9f39a-628a-4460-bf74-0d08c18a4fea` (KeePassXC
  /// calls it the KDBX 3 AES-KDF and writes it in KDBX 4 files too). The only AES-KDF UUID this library writes.
  case aesKDBX3
  /// AES-KDF under `7c02bb82-79a7-4ac0-927d-114a00648238`, an alias that KeePassXC reads but never writes; KeePass 2
  /// and pykeepass refuse it. Read, never written: a file read with it is saved under ``aesKDBX3``.
  case aesKDBX4
  case argon2d
  case argon2id

  /// The KDF UUID.
  package var uuid: KDBXUUID {
    switch self {
    case .aesKDBX3: return KnownUUIDs.aesKDFKDBX3
    case .aesKDBX4: return KnownUUIDs.aesKDFKDBX4
    case .argon2d: return KnownUUIDs.argon2d
    case .argon2id: return KnownUUIDs.argon2id
    }
  }

  /// The KDF with UUID `uuid`, or `nil`.
  package init?(uuid: KDBXUUID) {
    guard let match = KDFAlgorithm.allCases.first(where: { $0.uuid == uuid }) else { return nil }
    self = match
  }
}

/// The cipher and KDF UUIDs, in file byte order.
package enum KnownUUIDs {
  package static let aes256 = KDBXUUID(uncheckedBytes: bytes("31c1f2e6bf714350be5805216afc5aff"))
  package static let chaCha20 = KDBXUUID(uncheckedBytes: bytes("d6038a2b8b6f4cb5a524339a31dbb59a"))
  package static let twofish = KDBXUUID(uncheckedBytes: bytes("ad68f29f576f4bb9a36ad47af965346c"))
  package static let aesKDFKDBX3 = KDBXUUID(uncheckedBytes: bytes("c9d9f39a628a4460bf740d08c18a4fea"))
  package static let aesKDFKDBX4 = KDBXUUID(uncheckedBytes: bytes("7c02bb8279a74ac0927d114a00648238"))
  package static let argon2d = KDBXUUID(uncheckedBytes: bytes("ef636ddf8c29444b91f7a9a403e30a0c"))
  package static let argon2id = KDBXUUID(uncheckedBytes: bytes("9e298b1956db4773b23dfc3ec6f0a1e6"))

  static func bytes(_ hex: String) -> [UInt8] {
    guard let decoded = Hex.decode(hex) else { preconditionFailure("bad built-in UUID") }
    return decoded
  }
}

/// Keys of the KDF parameters VariantDictionary (KDBX 4.1 specification, "Key Derivation").
package enum KDFParameterKey {
  /// The KDF UUID (byte array).
  package static let uuid = "$UUID"
  /// AES-KDF: the number of rounds (`UInt64`).
  package static let aesRounds = "R"
  /// AES-KDF: the 32-byte seed (byte array).
  package static let aesSeed = "S"
  /// Argon2: the salt (byte array).
  package static let argon2Salt = "S"
  /// Argon2: the parallelism, lanes (`UInt32`).
  package static let argon2Parallelism = "P"
  /// Argon2: the memory in bytes (`UInt64`).
  package static let argon2Memory = "M"
  /// Argon2: the iterations (`UInt64`).
  package static let argon2Iterations = "I"
  /// Argon2: the version, 0x10 or 0x13 (`UInt32`).
  package static let argon2Version = "V"
  /// Argon2: the optional secret key K (byte array).
  package static let argon2SecretKey = "K"
  /// Argon2: the optional associated data X (byte array).
  package static let argon2AssociatedData = "A"
}

import KDBXBase

/// The unencrypted outer header of a KDBX file (KDBX 4.1 specification, "Header").
///
/// Layout: two signature `UInt32`s, the version `UInt32` (minor in the low, major in the high 16 bits), then fields
/// of an ID byte, a length (`UInt16` in KDBX 2.x/3.x, `UInt32` in 4.x) and data, up to the end-of-header field.
/// Parsing keeps the exact header bytes in `rawBytes`: KDBX 3.1 stores their SHA-256 in `Meta/HeaderHash`, and
/// KDBX 4 follows them with their SHA-256 and HMAC-SHA-256.
package struct OuterHeader: Sendable, Equatable {
  /// A header field this version does not use or this library does not know, kept verbatim and written back.
  package struct Field: Sendable, Equatable {
    package var id: UInt8
    package var data: [UInt8]

    package init(id: UInt8, data: [UInt8]) {
      self.id = id
      self.data = data
    }
  }

  /// The format version.
  package var version: KDBXVersion
  /// The minor version number as read (KeePass accepts any minor version of a known major version).
  package var minorVersion: UInt16
  /// The payload cipher (field 2).
  package var cipher: CipherAlgorithm
  /// The payload compression (field 3).
  package var compression: CompressionAlgorithm
  /// The 32-byte master seed (field 4), fresh on every save.
  package var masterSeed: [UInt8]
  /// The cipher IV or nonce (field 7): 16 bytes for AES and Twofish, 12 for ChaCha20.
  package var encryptionIV: [UInt8]
  /// The KDF settings: fields 5 and 6 in KDBX 3.x, field 11 in KDBX 4.x.
  package var kdf: KDFParameters
  /// KDBX 3.x: the inner random stream key (field 8).
  package var protectedStreamKey: [UInt8]?
  /// KDBX 3.x: the first 32 plaintext bytes of the payload (field 9), which show whether the key was right.
  package var streamStartBytes: [UInt8]?
  /// KDBX 3.x: the inner random stream algorithm (field 10). KDBX 4 keeps it in the inner header.
  package var innerRandomStream: InnerRandomStreamAlgorithm?
  /// KDBX 4.x: public custom data (field 12), readable without the key.
  package var publicCustomData: VariantDictionary?
  /// The comment field (1), if any.
  package var comment: [UInt8]?
  /// Fields kept verbatim: unknown IDs, and IDs of the other container version.
  package var extraFields: [Field]
  /// The data of the end-of-header field as read (KeePass writes `\r\n\r\n`).
  package var endOfHeaderData: [UInt8]
  /// The exact header bytes that were parsed, from the first signature through the end-of-header field; empty for
  /// a header built in memory.
  package private(set) var rawBytes: [UInt8]

  /// Creates a header in memory.
  package init(
    version: KDBXVersion, cipher: CipherAlgorithm, compression: CompressionAlgorithm, masterSeed: [UInt8],
    encryptionIV: [UInt8], kdf: KDFParameters, protectedStreamKey: [UInt8]? = nil, streamStartBytes: [UInt8]? = nil,
    innerRandomStream: InnerRandomStreamAlgorithm? = nil, publicCustomData: VariantDictionary? = nil
  ) {
    self.version = version
    self.minorVersion = version.minor
    self.cipher = cipher
    self.compression = compression
    self.masterSeed = masterSeed
    self.encryptionIV = encryptionIV
    self.kdf = kdf
    self.protectedStreamKey = protectedStreamKey
    self.streamStartBytes = streamStartBytes
    self.innerRandomStream = innerRandomStream
    self.publicCustomData = publicCustomData
    self.comment = nil
    self.extraFields = []
    self.endOfHeaderData = FormatConstants.endOfHeaderData
    self.rawBytes = []
  }

  /// Reads the signatures and version at the start of `bytes`.
  ///
  /// Throws ``KDBXError/notKeePassFile``, ``KDBXError/unsupportedKDB1``, ``KDBXError/unsupportedPreReleaseFormat``
  /// or ``KDBXError/unsupportedVersion(major:minor:)`` for files this library cannot read.
  package static func readVersion(_ reader: inout ByteReader) throws(KDBXError) -> (KDBXVersion, minor: UInt16) {
    guard try reader.readUInt32() == FormatConstants.signature1 else { throw .notKeePassFile }
    switch try reader.readUInt32() {
    case FormatConstants.signature2KDBX: break
    case FormatConstants.signature2KDB1: throw .unsupportedKDB1
    case FormatConstants.signature2PreRelease: throw .unsupportedPreReleaseFormat
    default: throw .notKeePassFile
    }
    let minor = try reader.readUInt16()
    let major = try reader.readUInt16()
    return (try KDBXVersion(major: major, minor: minor), minor)
  }

  /// Parses the header at the start of `bytes`. The header ends at `rawBytes.count`.
  package init(parsing bytes: [UInt8], options: LoadOptions = .default) throws(KDBXError) {
    var reader = ByteReader(bytes)
    let (version, minor) = try OuterHeader.readVersion(&reader)
    var fields = OuterHeaderFields(version: version)
    while true {
      let id = try reader.readUInt8()
      let rawLength: UInt32 = version.isKDBX4 ? try reader.readUInt32() : UInt32(try reader.readUInt16())
      let name = OuterHeaderFieldID(rawValue: id)?.name ?? "field \(id)"
      // Compared as UInt64 first: on 32-bit platforms a UInt32 length may not fit in Int.
      guard UInt64(rawLength) <= UInt64(clamping: options.maxHeaderFieldByteCount), let length = Int(exactly: rawLength)
      else {
        throw .limitExceeded(
          what: "header field \(name) bytes", value: UInt64(rawLength),
          limit: UInt64(clamping: options.maxHeaderFieldByteCount))
      }
      let data = try reader.readBytes(length)
      if id == OuterHeaderFieldID.endOfHeader.rawValue {
        fields.endOfHeaderData = data
        break
      }
      try fields.add(id: id, data: data, options: options)
    }
    self = try fields.makeHeader(minor: minor, options: options)
    rawBytes = Array(bytes[0..<reader.offset])
  }

  /// The wire form of the header (signatures through end-of-header field), in the field order KeePass writes.
  /// Throws when a KDBX 3.x field does not fit its 2-byte length.
  package func serialized() throws(KDBXError) -> [UInt8] {
    var writer = ByteWriter(capacity: 256)
    writer.write(FormatConstants.signature1)
    writer.write(FormatConstants.signature2KDBX)
    writer.write(minorVersion)
    writer.write(version.major)
    func field(_ id: UInt8, _ data: [UInt8]) throws(KDBXError) {
      writer.write(id)
      if version.isKDBX4 {
        guard UInt64(data.count) <= UInt64(UInt32.max) else {
          throw .malformedHeader(field: "field \(id)", reason: "longer than a UInt32 length allows")
        }
        writer.write(UInt32(truncatingIfNeeded: data.count))
      } else {
        guard data.count <= Int(UInt16.max) else {
          throw .malformedHeader(field: "field \(id)", reason: "longer than a KDBX 3.x field allows")
        }
        writer.write(UInt16(truncatingIfNeeded: data.count))
      }
      writer.write(data)
    }
    func uint32(_ value: UInt32) -> [UInt8] {
      var bytes = ByteWriter()
      bytes.write(value)
      return bytes.bytes
    }
    try field(OuterHeaderFieldID.cipherID.rawValue, cipher.uuid.bytes)
    try field(OuterHeaderFieldID.compressionFlags.rawValue, uint32(compression.rawValue))
    try field(OuterHeaderFieldID.masterSeed.rawValue, masterSeed)
    if version.isKDBX4 {
      try field(OuterHeaderFieldID.encryptionIV.rawValue, encryptionIV)
      try field(OuterHeaderFieldID.kdfParameters.rawValue, kdf.dictionary.serialized())
      if let publicCustomData {
        try field(OuterHeaderFieldID.publicCustomData.rawValue, publicCustomData.serialized())
      }
    } else {
      guard case .aesKDF(let aes) = kdf else {
        throw .malformedHeader(field: "KdfParameters", reason: "KDBX 3.x supports AES-KDF only")
      }
      try field(OuterHeaderFieldID.transformSeed.rawValue, aes.seed)
      var rounds = ByteWriter()
      rounds.write(aes.rounds)
      try field(OuterHeaderFieldID.transformRounds.rawValue, rounds.bytes)
      try field(OuterHeaderFieldID.encryptionIV.rawValue, encryptionIV)
      // Absent (allowed when the inner stream is none) stays absent: the parser refuses an empty key.
      if let protectedStreamKey { try field(OuterHeaderFieldID.protectedStreamKey.rawValue, protectedStreamKey) }
      try field(OuterHeaderFieldID.streamStartBytes.rawValue, streamStartBytes ?? [])
      try field(OuterHeaderFieldID.innerRandomStreamID.rawValue, uint32((innerRandomStream ?? .none).rawValue))
    }
    if let comment { try field(OuterHeaderFieldID.comment.rawValue, comment) }
    for extra in extraFields { try field(extra.id, extra.data) }
    try field(OuterHeaderFieldID.endOfHeader.rawValue, endOfHeaderData)
    return writer.bytes
  }

  /// The challenge a challenge-response key (for example a YubiKey in HMAC-SHA1 mode) is given for this file, as
  /// KeePassXC does it: the KDF seed for KDBX 4.x, the master seed for KDBX 3.x.
  package var challenge: [UInt8] { version.isKDBX4 ? kdf.seed : masterSeed }
}

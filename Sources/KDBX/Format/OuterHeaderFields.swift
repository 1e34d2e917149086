/// Collects outer-header fields while parsing, then checks them together (sizes, required fields, IV length for the
/// cipher) and builds the ``OuterHeader``.
struct OuterHeaderFields {
  let version: KDBXVersion
  var seen: [UInt8] = []
  var cipher: CipherAlgorithm?
  var compression: CompressionAlgorithm?
  var masterSeed: [UInt8]?
  var transformSeed: [UInt8]?
  var transformRounds: UInt64?
  var encryptionIV: [UInt8]?
  var protectedStreamKey: [UInt8]?
  var streamStartBytes: [UInt8]?
  var innerRandomStream: InnerRandomStreamAlgorithm?
  var kdf: KDFParameters?
  var publicCustomData: VariantDictionary?
  var comment: [UInt8]?
  var extraFields: [OuterHeader.Field] = []
  var endOfHeaderData: [UInt8] = []

  init(version: KDBXVersion) { self.version = version }

  static func uint32(_ data: [UInt8], _ field: OuterHeaderFieldID) throws(KDBXError) -> UInt32 {
    guard data.count == 4 else {
      throw .malformedHeader(field: field.name, reason: "must be 4 bytes, got \(data.count)")
    }
    var reader = ByteReader(data)
    return try reader.readUInt32()
  }

  static func sized(_ data: [UInt8], _ count: Int, _ field: OuterHeaderFieldID) throws(KDBXError) -> [UInt8] {
    guard data.count == count else {
      throw .malformedHeader(field: field.name, reason: "must be \(count) bytes, got \(data.count)")
    }
    return data
  }

  mutating func add(id: UInt8, data: [UInt8], options: LoadOptions) throws(KDBXError) {
    guard let field = OuterHeaderFieldID(rawValue: id) else {
      extraFields.append(OuterHeader.Field(id: id, data: data))
      return
    }
    let kdbx3Only: [OuterHeaderFieldID] = [
      .transformSeed, .transformRounds, .protectedStreamKey, .streamStartBytes, .innerRandomStreamID,
    ]
    let kdbx4Only: [OuterHeaderFieldID] = [.kdfParameters, .publicCustomData]
    if (version.isKDBX4 && kdbx3Only.contains(field)) || (!version.isKDBX4 && kdbx4Only.contains(field)) {
      extraFields.append(OuterHeader.Field(id: id, data: data))
      return
    }
    guard !seen.contains(id) else { throw .malformedHeader(field: field.name, reason: "appears twice") }
    seen.append(id)
    switch field {
    case .endOfHeader: break
    case .comment: comment = data
    case .cipherID:
      guard let uuid = KDBXUUID(bytes: data) else {
        throw .malformedHeader(field: field.name, reason: "must be 16 bytes, got \(data.count)")
      }
      guard let algorithm = CipherAlgorithm(uuid: uuid) else { throw .unsupportedCipher(uuid: uuid.description) }
      cipher = algorithm
    case .compressionFlags:
      let value = try OuterHeaderFields.uint32(data, field)
      guard let algorithm = CompressionAlgorithm(rawValue: value) else { throw .unsupportedCompression(id: value) }
      compression = algorithm
    case .masterSeed: masterSeed = try OuterHeaderFields.sized(data, FormatConstants.masterSeedByteCount, field)
    case .transformSeed:
      transformSeed = try OuterHeaderFields.sized(data, FormatConstants.transformSeedByteCount, field)
    case .transformRounds:
      var reader = ByteReader(try OuterHeaderFields.sized(data, 8, field))
      transformRounds = try reader.readUInt64()
    case .encryptionIV: encryptionIV = data
    case .protectedStreamKey:
      guard !data.isEmpty else { throw .malformedHeader(field: field.name, reason: "is empty") }
      protectedStreamKey = data
    case .streamStartBytes:
      streamStartBytes = try OuterHeaderFields.sized(data, FormatConstants.streamStartBytesByteCount, field)
    case .innerRandomStreamID:
      let value = try OuterHeaderFields.uint32(data, field)
      guard let algorithm = InnerRandomStreamAlgorithm(rawValue: value), algorithm != .arcFourVariant else {
        throw .unsupportedInnerRandomStream(id: value)
      }
      innerRandomStream = algorithm
    case .kdfParameters:
      kdf = try KDFParameters(dictionary: try VariantDictionary(parsing: data), options: options)
    case .publicCustomData: publicCustomData = try VariantDictionary(parsing: data)
    }
  }

  func makeHeader(minor: UInt16, options: LoadOptions) throws(KDBXError) -> OuterHeader {
    func missing(_ field: OuterHeaderFieldID) -> KDBXError { .malformedHeader(field: field.name, reason: "missing") }
    guard let cipher else { throw missing(.cipherID) }
    guard let compression else { throw missing(.compressionFlags) }
    guard let masterSeed else { throw missing(.masterSeed) }
    guard let encryptionIV else { throw missing(.encryptionIV) }
    guard encryptionIV.count == cipher.ivByteCount else {
      throw .malformedHeader(
        field: OuterHeaderFieldID.encryptionIV.name,
        reason: "must be \(cipher.ivByteCount) bytes for this cipher, got \(encryptionIV.count)")
    }
    let kdfParameters: KDFParameters
    if version.isKDBX4 {
      guard let kdf else { throw missing(.kdfParameters) }
      kdfParameters = kdf
    } else {
      guard let transformSeed else { throw missing(.transformSeed) }
      guard let transformRounds else { throw missing(.transformRounds) }
      guard let innerRandomStream else { throw missing(.innerRandomStreamID) }
      guard streamStartBytes != nil else { throw missing(.streamStartBytes) }
      guard protectedStreamKey != nil || innerRandomStream == .none else { throw missing(.protectedStreamKey) }
      let aes = AESKDFParameters(rounds: transformRounds, seed: transformSeed, uuidVariant: .aesKDBX3)
      try aes.validate(options: options, field: OuterHeaderFieldID.transformRounds.name)
      kdfParameters = .aesKDF(aes)
    }
    var header = OuterHeader(
      version: version, cipher: cipher, compression: compression, masterSeed: masterSeed, encryptionIV: encryptionIV,
      kdf: kdfParameters, protectedStreamKey: protectedStreamKey, streamStartBytes: streamStartBytes,
      innerRandomStream: innerRandomStream, publicCustomData: publicCustomData)
    header.minorVersion = minor
    header.comment = comment
    header.extraFields = extraFields
    header.endOfHeaderData = endOfHeaderData
    return header
  }
}

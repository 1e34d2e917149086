import KDBXBase

/// The KDBX 4 inner header, at the start of the decrypted (and decompressed) payload: the inner random stream
/// algorithm and key, and the binary pool (KDBX 4.1 specification, "Inner Header").
///
/// Fields are an ID byte, an `Int32` length and data, up to the end-of-header field (ID 0). A binary's data starts
/// with a flags byte (bit 0: protected in memory).
package struct InnerHeader: Sendable, Equatable {
  /// One binary of the pool. Entries refer to binaries by their position in the pool.
  package struct Binary: Sendable, Equatable {
    /// Whether KeePass should keep the binary protected in memory (flag bit 0).
    package var isProtected: Bool
    /// The binary's content.
    package var data: [UInt8]

    package init(isProtected: Bool, data: [UInt8]) {
      self.isProtected = isProtected
      self.data = data
    }
  }

  /// The algorithm that protects values in the XML.
  package var innerRandomStream: InnerRandomStreamAlgorithm
  /// The key of the inner random stream (64 bytes for ChaCha20 as KeePass writes it).
  package var innerRandomStreamKey: [UInt8]
  /// The binary pool, in order.
  package var binaries: [Binary]
  /// Fields with unknown IDs, kept verbatim and written back before the end field.
  package var extraFields: [OuterHeader.Field]
  /// The number of payload bytes the inner header took when parsed (the XML starts there); 0 when built in memory.
  package private(set) var byteCount: Int

  package init(innerRandomStream: InnerRandomStreamAlgorithm, innerRandomStreamKey: [UInt8], binaries: [Binary] = []) {
    self.innerRandomStream = innerRandomStream
    self.innerRandomStreamKey = innerRandomStreamKey
    self.binaries = binaries
    self.extraFields = []
    self.byteCount = 0
  }

  /// Parses the inner header at the start of `payload`; the database XML follows at ``byteCount``.
  package init(parsing payload: [UInt8], options: LoadOptions = .default) throws(KDBXError) {
    var reader = ByteReader(payload)
    var stream: InnerRandomStreamAlgorithm?
    var key: [UInt8]?
    var binaries: [Binary] = []
    var extras: [OuterHeader.Field] = []
    while true {
      let id = try reader.readUInt8()
      let name = InnerHeaderFieldID(rawValue: id)?.name ?? "field \(id)"
      let length = try reader.readInt32()
      guard length >= 0 else { throw .malformedInnerHeader(field: name, reason: "negative length \(length)") }
      let size = Int(length)
      if id == InnerHeaderFieldID.binary.rawValue {
        guard size <= options.maxPayloadByteCount else {
          throw .limitExceeded(
            what: "binary bytes", value: UInt64(size), limit: UInt64(clamping: options.maxPayloadByteCount))
        }
      } else if size > options.maxHeaderFieldByteCount {
        throw .limitExceeded(
          what: "inner header field \(name) bytes", value: UInt64(size),
          limit: UInt64(clamping: options.maxHeaderFieldByteCount))
      }
      let data = try reader.readBytes(size)
      switch InnerHeaderFieldID(rawValue: id) {
      case .endOfHeader?:
        guard let stream else { throw .malformedInnerHeader(field: "InnerRandomStreamID", reason: "missing") }
        guard let key else { throw .malformedInnerHeader(field: "InnerRandomStreamKey", reason: "missing") }
        self.innerRandomStream = stream
        self.innerRandomStreamKey = key
        self.binaries = binaries
        self.extraFields = extras
        self.byteCount = reader.offset
        return
      case .innerRandomStreamID?:
        guard stream == nil else { throw .malformedInnerHeader(field: name, reason: "appears twice") }
        guard data.count == 4 else { throw .malformedInnerHeader(field: name, reason: "must be 4 bytes") }
        var value = ByteReader(data)
        let raw = try value.readUInt32()
        guard let algorithm = InnerRandomStreamAlgorithm(rawValue: raw), algorithm != .arcFourVariant else {
          throw .unsupportedInnerRandomStream(id: raw)
        }
        stream = algorithm
      case .innerRandomStreamKey?:
        guard key == nil else { throw .malformedInnerHeader(field: name, reason: "appears twice") }
        guard !data.isEmpty else { throw .malformedInnerHeader(field: name, reason: "is empty") }
        key = data
      case .binary?:
        guard let flags = data.first else { throw .malformedInnerHeader(field: name, reason: "has no flags byte") }
        binaries.append(Binary(isProtected: flags & InnerBinaryFlags.protected != 0, data: Array(data[1...])))
      case nil:
        extras.append(OuterHeader.Field(id: id, data: data))
      }
    }
  }

  /// The wire form: stream ID, stream key, binaries in order, extra fields, end field.
  package func serialized() -> [UInt8] {
    var writer = ByteWriter()
    func field(_ id: UInt8, _ parts: [UInt8]...) {
      writer.write(id)
      writer.write(Int32(truncatingIfNeeded: parts.reduce(0) { $0 + $1.count }))
      for part in parts { writer.write(part) }
    }
    var streamID = ByteWriter()
    streamID.write(innerRandomStream.rawValue)
    field(InnerHeaderFieldID.innerRandomStreamID.rawValue, streamID.bytes)
    field(InnerHeaderFieldID.innerRandomStreamKey.rawValue, innerRandomStreamKey)
    for binary in binaries {
      field(InnerHeaderFieldID.binary.rawValue, [binary.isProtected ? InnerBinaryFlags.protected : 0], binary.data)
    }
    for extra in extraFields { field(extra.id, extra.data) }
    field(InnerHeaderFieldID.endOfHeader.rawValue)
    return writer.bytes
  }
}

import KDBXBase

/// The KDBX 4 VariantDictionary: a typed key-value list used for the KDF parameters (header field 11) and the public
/// custom data (header field 12) (KDBX 4.1 specification, "VariantDictionary").
///
/// Wire form: a `UInt16` version (`0x0100`; the high byte is the critical part), then items of a type byte, an
/// `Int32` key length, the UTF-8 key, an `Int32` value length and the value, ended by a type byte of zero. Item order
/// is kept, so a dictionary read and written again gives the same bytes.
package struct VariantDictionary: Sendable, Equatable {
  /// The version KeePass writes.
  package static let version: UInt16 = 0x0100
  /// The critical (major) part of the version; a reader refuses a higher one.
  static let versionCriticalMask: UInt16 = 0xFF00
  /// The longest key accepted on read.
  package static let maxKeyByteCount = 1_024
  /// The most items accepted on read.
  package static let maxItemCount = 4_096

  /// A typed value, with the wire type byte of each case.
  package enum Value: Sendable, Equatable {
    /// Type `0x04`.
    case uint32(UInt32)
    /// Type `0x05`.
    case uint64(UInt64)
    /// Type `0x08`.
    case bool(Bool)
    /// Type `0x0C`.
    case int32(Int32)
    /// Type `0x0D`.
    case int64(Int64)
    /// Type `0x18`, UTF-8 text.
    case string(String)
    /// Type `0x42`.
    case byteArray([UInt8])

    /// The wire type byte.
    package var typeByte: UInt8 {
      switch self {
      case .uint32: return 0x04
      case .uint64: return 0x05
      case .bool: return 0x08
      case .int32: return 0x0C
      case .int64: return 0x0D
      case .string: return 0x18
      case .byteArray: return 0x42
      }
    }
  }

  /// One key-value item.
  package struct Item: Sendable, Equatable {
    package var key: String
    package var value: Value

    package init(key: String, value: Value) {
      self.key = key
      self.value = value
    }
  }

  /// The items in wire order. Keys are unique.
  package private(set) var items: [Item]

  /// Creates an empty dictionary.
  package init() { items = [] }

  /// The value for `key`, or `nil`.
  package subscript(key: String) -> Value? {
    get { items.first { $0.key == key }?.value }
    set {
      if let index = items.firstIndex(where: { $0.key == key }) {
        if let newValue { items[index].value = newValue } else { items.remove(at: index) }
      } else if let newValue {
        items.append(Item(key: key, value: newValue))
      }
    }
  }

  /// Parses a dictionary that fills `bytes` exactly.
  package init(parsing bytes: [UInt8]) throws(KDBXError) {
    var reader = ByteReader(bytes)
    let version = try VariantDictionary.wrap { () throws(KDBXError) in try reader.readUInt16() }
    guard
      version & VariantDictionary.versionCriticalMask <= VariantDictionary.version
        & VariantDictionary.versionCriticalMask
    else { throw .malformedVariantDictionary(offset: 0, reason: "unsupported version \(version)") }
    items = []
    while true {
      let itemOffset = reader.offset
      let type = try VariantDictionary.wrap { () throws(KDBXError) in try reader.readUInt8() }
      if type == 0 { break }
      guard items.count < VariantDictionary.maxItemCount else {
        throw .malformedVariantDictionary(
          offset: itemOffset, reason: "more than \(VariantDictionary.maxItemCount) items")
      }
      let keyLength = try VariantDictionary.wrap { () throws(KDBXError) in try reader.readInt32() }
      guard keyLength >= 0, Int(keyLength) <= VariantDictionary.maxKeyByteCount else {
        throw .malformedVariantDictionary(offset: itemOffset, reason: "bad key length \(keyLength)")
      }
      let keyBytes = try VariantDictionary.wrap { () throws(KDBXError) in try reader.readBytes(Int(keyLength)) }
      guard let key = String(validating: keyBytes, as: UTF8.self) else {
        throw .malformedVariantDictionary(offset: itemOffset, reason: "key is not UTF-8")
      }
      guard !items.contains(where: { $0.key == key }) else {
        throw .malformedVariantDictionary(offset: itemOffset, reason: "duplicate key \(key)")
      }
      let valueLength = try VariantDictionary.wrap { () throws(KDBXError) in try reader.readInt32() }
      guard valueLength >= 0, Int(valueLength) <= reader.remainingCount else {
        throw .malformedVariantDictionary(offset: itemOffset, reason: "bad value length \(valueLength) for \(key)")
      }
      let data = try VariantDictionary.wrap { () throws(KDBXError) in try reader.readBytes(Int(valueLength)) }
      items.append(
        Item(key: key, value: try VariantDictionary.value(type: type, data: data, key: key, offset: itemOffset)))
    }
    guard reader.isAtEnd else {
      throw .malformedVariantDictionary(offset: reader.offset, reason: "trailing bytes after the terminator")
    }
  }

  /// Maps a truncation inside the dictionary to a dictionary error at the same offset.
  static func wrap<T>(_ body: () throws(KDBXError) -> T) throws(KDBXError) -> T {
    do throws(KDBXError) {
      return try body()
    } catch {
      if case .truncated(let offset, _) = error {
        throw .malformedVariantDictionary(offset: offset, reason: "truncated")
      }
      throw error
    }
  }

  static func value(type: UInt8, data: [UInt8], key: String, offset: Int) throws(KDBXError) -> Value {
    func fixed(_ size: Int) throws(KDBXError) -> ByteReader {
      guard data.count == size else {
        throw .malformedVariantDictionary(offset: offset, reason: "value of \(key) must be \(size) bytes")
      }
      return ByteReader(data)
    }
    switch type {
    case 0x04:
      var reader = try fixed(4)
      return .uint32(try reader.readUInt32())
    case 0x05:
      var reader = try fixed(8)
      return .uint64(try reader.readUInt64())
    case 0x08:
      let reader = try fixed(1)
      return .bool(reader.bytes[0] != 0)
    case 0x0C:
      var reader = try fixed(4)
      return .int32(try reader.readInt32())
    case 0x0D:
      var reader = try fixed(8)
      return .int64(try reader.readInt64())
    case 0x18:
      guard let text = String(validating: data, as: UTF8.self) else {
        throw .malformedVariantDictionary(offset: offset, reason: "value of \(key) is not UTF-8")
      }
      return .string(text)
    case 0x42:
      return .byteArray(data)
    default:
      throw .malformedVariantDictionary(offset: offset, reason: "unknown value type \(type) for \(key)")
    }
  }

  /// The wire form: version, items in order, terminator.
  package func serialized() -> [UInt8] {
    var writer = ByteWriter()
    writer.write(VariantDictionary.version)
    for item in items {
      writer.write(item.value.typeByte)
      let key = Array(item.key.utf8)
      writer.write(Int32(truncatingIfNeeded: key.count))
      writer.write(key)
      var value = ByteWriter()
      switch item.value {
      case .uint32(let number): value.write(number)
      case .uint64(let number): value.write(number)
      case .bool(let flag): value.write(flag ? 1 as UInt8 : 0)
      case .int32(let number): value.write(number)
      case .int64(let number): value.write(number)
      case .string(let text): value.write(Array(text.utf8))
      case .byteArray(let data): value.write(data)
      }
      writer.write(Int32(truncatingIfNeeded: value.count))
      writer.write(value.bytes)
    }
    writer.write(0 as UInt8)
    return writer.bytes
  }
}

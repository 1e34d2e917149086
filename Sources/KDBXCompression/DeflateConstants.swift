/// Wire constants of the DEFLATE format (RFC 1951), defined once for the encoder and the decoder.
enum DeflateConstants {
  /// RFC 1951 §3.2.5: base lengths of literal/length symbols 257...285.
  static let lengthBase: [UInt16] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
  ]
  /// RFC 1951 §3.2.5: extra bits of literal/length symbols 257...285.
  static let lengthExtraBits: [UInt8] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  /// RFC 1951 §3.2.5: base distances of distance symbols 0...29.
  static let distanceBase: [UInt16] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
    6145, 8193, 12289, 16385, 24577,
  ]
  /// RFC 1951 §3.2.5: extra bits of distance symbols 0...29.
  static let distanceExtraBits: [UInt8] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
  ]
  /// RFC 1951 §3.2.7: the order in which code-length code lengths are sent.
  static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  /// RFC 1951 §3.2.6: the fixed literal/length code lengths (symbols 0...287).
  static func fixedLiteralLengths() -> [UInt8] {
    var lengths = [UInt8](repeating: 8, count: 288)
    for symbol in 144..<256 { lengths[symbol] = 9 }
    for symbol in 256..<280 { lengths[symbol] = 7 }
    return lengths
  }

  /// RFC 1951 §3.2.6: the fixed distance code lengths (symbols 0...31, all 5 bits).
  static func fixedDistanceLengths() -> [UInt8] { [UInt8](repeating: 5, count: 32) }

  /// The largest distance (RFC 1951 §2: the window is 32 KiB).
  static let windowSize = 32768
  static let minMatch = 3
  static let maxMatch = 258
  static let endOfBlock = 256
  static let literalLengthSymbolCount = 286
  static let distanceSymbolCount = 30
  static let codeLengthSymbolCount = 19
  static let maxCodeLength = 15
  static let maxCodeLengthCodeLength = 7
  /// The largest LEN of a stored block (RFC 1951 §3.2.4).
  static let maxStoredLength = 65535
}

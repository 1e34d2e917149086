// The Base64 kernels (RFC 4648 §4). Encoding writes the text straight into the new string's storage, so that
// encoding costs one allocation (none for results of up to 15 characters, which Swift keeps inline); decoding
// reads a native string's contiguous UTF-8 rather than its UTF-8 view.

extension Base64 {
  /// Encodes `bytes` with padding (RFC 4648 §4).
  // SAFETY: `bytes` is the caller's closure-scoped buffer, read only below `inputCount`; the alphabet's buffer and
  // the string's uninitialised storage (`outputCount` bytes, all written before returning outputCount) live only
  // inside their closures.
  static func encode(_ bytes: UnsafeRawBufferPointer) -> String {
    let inputCount = bytes.count
    let outputCount = (inputCount + 2) / 3 * 4
    return alphabet.withUnsafeBufferPointer { alphabet in
      String(unsafeUninitializedCapacity: outputCount) { out in
        var index = 0
        var outIndex = 0
        // SAFETY: each group of 3 input bytes (index + 3 <= inputCount) gives 4 output bytes, and outIndex is 4/3
        // of index, so outIndex + 4 <= outputCount = out.count; alphabet has 64 entries, indexed by 6-bit values.
        while index + 3 <= inputCount {
          let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
          out[outIndex] = alphabet[Int(word >> 18 & 63)]
          out[outIndex + 1] = alphabet[Int(word >> 12 & 63)]
          out[outIndex + 2] = alphabet[Int(word >> 6 & 63)]
          out[outIndex + 3] = alphabet[Int(word & 63)]
          index += 3
          outIndex += 4
        }
        let rest = inputCount - index
        if rest > 0 {
          // SAFETY: one last group of 1 or 2 bytes remains (index + rest == inputCount) and 4 output bytes are
          // left for it (outputCount rounds up).
          let second = rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0
          let word = UInt32(bytes[index]) << 16 | second
          out[outIndex] = alphabet[Int(word >> 18 & 63)]
          out[outIndex + 1] = alphabet[Int(word >> 12 & 63)]
          out[outIndex + 2] = rest == 2 ? alphabet[Int(word >> 6 & 63)] : 0x3D
          out[outIndex + 3] = 0x3D
        }
        return outputCount
      }
    }
  }

  /// Encodes the 8 little-endian bytes of `value` (the KDBX 4 form of times).
  package static func encode(littleEndian value: UInt64) -> String {
    // SAFETY: the 8 bytes of the local copy are read inside the closure only.
    withUnsafeBytes(of: value.littleEndian) { encode($0) }
  }

  /// Decodes the contiguous UTF-8 of `text` as ``decode(utf8:options:)`` does: `.some(nil)` when it is not valid,
  /// `nil` when the string has no contiguous UTF-8 (a bridged string), which the caller then decodes another way.
  static func decodeContiguous(_ text: String, options: Options) -> [UInt8]?? {
    // SAFETY: the buffer is the string's own storage, valid during the closure; it is only iterated (for-in over
    // an UnsafeBufferPointer stays within its count), never indexed here.
    text.utf8.withContiguousStorageIfAvailable { buffer in decode(utf8: buffer, options: options) }
  }
}

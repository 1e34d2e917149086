// AES lookup tables, computed once at first use from the definitions in FIPS 197.
//
// The tables are derived rather than pasted: the S-box from the multiplicative inverse in GF(2^8)
// followed by the affine transformation (FIPS 197 §5.1.1), the round tables from MixColumns
// (§5.1.3) and InvMixColumns (§5.3.3). The vectors in Vectors/aes check the result.

/// Multiplies by x (that is {02}) in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (FIPS 197 §4.2.1).
@inline(__always)
func aesTimesX(_ value: UInt8) -> UInt8 {
  (value << 1) ^ ((value >> 7) &* 0x1b)
}

/// Multiplies two elements of GF(2^8) (FIPS 197 §4.2). Used only while building tables.
func aesMultiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
  var a = a
  var b = b
  var product: UInt8 = 0
  while b != 0 {
    if b & 1 != 0 { product ^= a }
    a = aesTimesX(a)
    b >>= 1
  }
  return product
}

/// The S-box of FIPS 197 §5.1.1 (Figure 7), built from its definition.
func makeAESSBox() -> [UInt8] {
  var box = [UInt8](repeating: 0, count: 256)
  for value in 0..<256 {
    // Multiplicative inverse by exponentiation: x^254 = x^-1 for x != 0, and 0 maps to 0.
    let x = UInt8(value)
    var inverse: UInt8 = 1
    var base = x
    var exponent = 254
    while exponent > 0 {
      if exponent & 1 != 0 { inverse = aesMultiply(inverse, base) }
      base = aesMultiply(base, base)
      exponent >>= 1
    }
    if x == 0 { inverse = 0 }
    // Affine transformation: b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ 0x63.
    var result = inverse ^ 0x63
    for shift in 1...4 {
      result ^= (inverse << UInt8(shift)) | (inverse >> UInt8(8 - shift))
    }
    box[value] = result
  }
  return box
}

/// The tables used by the table-based AES kernels.
///
/// Layout of `words`: Te0..Te3 (encryption rounds, 4 x 256), Td0..Td3 (decryption rounds,
/// 4 x 256). Te0[x] = (02·S[x], S[x], S[x], 03·S[x]) as a big-endian word, Tei = Te0 rotated right
/// by 8·i bits; Td0[x] = (0e·Si[x], 09·Si[x], 0d·Si[x], 0b·Si[x]), Tdi likewise.
/// `bytes` holds S (256) then the inverse S-box Si (256).
@usableFromInline
struct AESTables: Sendable {
  let words: [UInt32]
  let bytes: [UInt8]

  init() {
    let sbox = makeAESSBox()
    var inverse = [UInt8](repeating: 0, count: 256)
    for index in 0..<256 { inverse[Int(sbox[index])] = UInt8(index) }
    var words = [UInt32](repeating: 0, count: 2048)
    for index in 0..<256 {
      let s = sbox[index]
      let te =
        UInt32(aesMultiply(s, 2)) << 24 | UInt32(s) << 16 | UInt32(s) << 8 | UInt32(aesMultiply(s, 3))
      let si = inverse[index]
      let td =
        UInt32(aesMultiply(si, 0x0e)) << 24 | UInt32(aesMultiply(si, 0x09)) << 16
        | UInt32(aesMultiply(si, 0x0d)) << 8 | UInt32(aesMultiply(si, 0x0b))
      for table in 0..<4 {
        let shift = UInt32(8 * table)
        words[table * 256 + index] = te.rotatedRight(by: shift)
        words[1024 + table * 256 + index] = td.rotatedRight(by: shift)
      }
    }
    self.words = words
    self.bytes = sbox + inverse
  }

  /// The shared instance, built on first use.
  static let shared = AESTables()
}

extension UInt32 {
  @inline(__always)
  func rotatedRight(by count: UInt32) -> UInt32 {
    (self >> (count & 31)) | (self << ((32 &- count) & 31))
  }

  @inline(__always)
  func rotatedLeft(by count: UInt32) -> UInt32 {
    (self << (count & 31)) | (self >> ((32 &- count) & 31))
  }
}

/// The order L = 2^252 + 27742317777372353535851937790883648493 of the Ed25519 base point (RFC 8032 §5.1).
@usableFromInline
enum Ed25519OrderModulus: MontgomeryModulus {
  @inline(__always) @usableFromInline
  static var modulus: Limbs256 {
    Limbs256(0x5812_631a_5cf5_d3ed, 0x14de_f9de_a2f7_9cd6, 0x0000_0000_0000_0000, 0x1000_0000_0000_0000)
  }
  @inline(__always) @usableFromInline
  static var inverse: UInt64 { 0xd2b5_1da3_1254_7e1b }
  @inline(__always) @usableFromInline
  static var rSquared: Limbs256 {
    Limbs256(0xa406_11e3_449c_0f01, 0xd00e_1ba7_6885_9347, 0xceec_73d2_17f5_be65, 0x0399_411b_7c30_9a3d)
  }
  @inline(__always) @usableFromInline
  static var one: Limbs256 {
    Limbs256(0xd6ec_3174_8d98_951d, 0xc6ef_5bf4_737d_cf70, 0xffff_ffff_ffff_fffe, 0x0fff_ffff_ffff_ffff)
  }
}

extension Ed25519 {
  /// A scalar modulo L, in Montgomery form.
  typealias Scalar = Residue<Ed25519OrderModulus>

  /// The order L as a plain integer.
  static var order: Limbs256 { Ed25519OrderModulus.modulus }

  /// A 64-byte little-endian integer (a SHA-512 output, RFC 8032 §5.1.6 steps 2 and 4) modulo L: with
  /// x = lo + 2^256·hi, x·R = lo·R + hi·R^2, two Montgomery products by R^2 and R^3.
  static func scalar(reducingWide bytes: [UInt8]) -> Scalar {
    let low = Limbs256(littleEndian: bytes.prefix(32)) ?? .zero
    let high = Limbs256(littleEndian: bytes.dropFirst(32).prefix(32)) ?? .zero
    let rCubed = Scalar(
      montgomery: Limbs256(0x2a9e_4968_7b83_a2db, 0x2783_24e6_aef7_f3ec, 0x8065_dc6c_04ec_5b65, 0x0e53_0b77_3599_cec7))
    return Scalar(reducing: low) + Scalar(montgomery: high) * rCubed
  }
}

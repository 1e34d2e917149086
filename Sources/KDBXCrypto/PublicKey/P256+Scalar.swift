/// The order n of the P-256 base point (NIST SP 800-186 §3.2.1.3): the modulus of ECDSA scalars.
@usableFromInline
enum P256OrderModulus: MontgomeryModulus {
  @inline(__always) @usableFromInline
  static var modulus: Limbs256 {
    Limbs256(0xf3b9_cac2_fc63_2551, 0xbce6_faad_a717_9e84, 0xffff_ffff_ffff_ffff, 0xffff_ffff_0000_0000)
  }
  @inline(__always) @usableFromInline
  static var inverse: UInt64 { 0xccd1_c8aa_ee00_bc4f }
  @inline(__always) @usableFromInline
  static var rSquared: Limbs256 {
    Limbs256(0x8324_4c95_be79_eea2, 0x4699_799c_49bd_6fa6, 0x2845_b239_2b6b_ec59, 0x66e1_2d94_f3d9_5620)
  }
  @inline(__always) @usableFromInline
  static var one: Limbs256 {
    Limbs256(0x0c46_353d_039c_daaf, 0x4319_0552_58e8_617b, 0x0000_0000_0000_0000, 0x0000_0000_ffff_ffff)
  }
}

extension P256 {
  /// A scalar modulo the group order n, in Montgomery form.
  typealias Scalar = Residue<P256OrderModulus>

  /// The group order n as a plain integer.
  static var order: Limbs256 { P256OrderModulus.modulus }

  /// Reads a 32-byte big-endian scalar and checks 1 <= d <= n-1 (FIPS 186-5 §A.2.1, SEC 1 §3.2.2): `nil`
  /// otherwise. The check runs in constant time; only its outcome is revealed.
  static func scalar(bigEndian bytes: ArraySlice<UInt8>) -> Limbs256? {
    guard let value = Limbs256(bigEndian: bytes) else { return nil }
    let valid = value.lessThanMask(order) & ~value.isZeroMask
    return valid != 0 ? value : nil
  }
}

/// The parts of ECDSA P-256 signing, one at a time, for the dudect variants of `kdbx-bench` (`ct-p256-part`):
/// each takes and returns 32 big-endian bytes, so that a timing test can give one part fixed or random inputs and
/// find which part makes a difference. Not for use in signing: the results are unprotected arrays.
package enum P256TimingProbe {
  /// The RFC 6979 §3.2 nonce k for the private key `key` and the digest `digest` (both 32 bytes), or `[]`.
  package static func nonce(key: [UInt8], digest: [UInt8]) -> [UInt8] {
    guard key.count == 32, let e = Limbs256(bigEndian: digest[...]) else { return [] }
    var nonces = RFC6979Nonces(key: key, reducedHash: P256.Scalar(reducing: e).value.bigEndianBytes)
    defer { nonces.wipe() }
    return nonces.next().bigEndianBytes
  }

  /// The projective X coordinate of k·G (the generator-table scalar multiplication alone), or `[]`.
  package static func generatorMultiple(_ scalar: [UInt8]) -> [UInt8] {
    guard let k = Limbs256(bigEndian: scalar[...]) else { return [] }
    return P256Point.generatorMultiple(k).x.limbs.bigEndianBytes
  }

  /// x^-1 mod p by Fermat's little theorem (the inversion of the affine conversion), or `[]`.
  package static func fieldInverse(_ value: [UInt8]) -> [UInt8] {
    guard let x = Limbs256(bigEndian: value[...]) else { return [] }
    return P256.FieldElement(reducing: x).inverse.value.bigEndianBytes
  }

  /// k^-1 mod n by Fermat's little theorem (the scalar inversion of signing), or `[]`.
  package static func scalarInverse(_ value: [UInt8]) -> [UInt8] {
    guard let k = Limbs256(bigEndian: value[...]) else { return [] }
    return P256.Scalar(reducing: k).inverse.value.bigEndianBytes
  }
}

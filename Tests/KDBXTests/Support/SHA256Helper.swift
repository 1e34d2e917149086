import KDBXCrypto

/// SHA-256 for building test inputs (the KDBXCrypto implementation is tested in its own suite against FIPS 180-4).
enum SHA256Helper {
  static func hash(_ bytes: [UInt8]) -> [UInt8] { SHA256.hash(bytes).bytes }
}

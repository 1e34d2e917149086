// The AES-KDF inner loop: repeated AES-256-ECB encryption of the two 16-byte halves.

extension AES {
  /// Encrypts both halves `count` times each, interleaving the two independent chains.
  @usableFromInline
  func encryptRepeatedly(_ first: inout AESWords, _ second: inout AESWords, count: UInt64) {
    withKernel(decrypting: false) { kernel in
      var a = first
      var b = second
      var remaining = count
      while remaining > 0 {
        kernel.encrypt(&a, &b)
        remaining -= 1
      }
      first = a
      second = b
    }
  }

  /// Encrypts one half `count` times (the per-core loop of the parallel transform).
  @usableFromInline
  func encryptRepeatedly(_ half: inout AESWords, count: UInt64) {
    withKernel(decrypting: false) { kernel in
      var a = half
      var remaining = count
      while remaining > 0 {
        a = kernel.encrypt(a)
        remaining -= 1
      }
      half = a
    }
  }
}

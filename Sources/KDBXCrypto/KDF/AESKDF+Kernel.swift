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

extension ConstantTimeAES {
  /// Encrypts both halves `count` times each in lanes 0 and 1 of the bitsliced state; the state
  /// stays in bit-plane form between rounds.
  func encryptRepeatedly(_ first: inout AESWords, _ second: inout AESWords, count: UInt64) {
    withKernel { kernel in
      var planes = AESPlanes()
      AESBitslice.insert(first.block, slot: 0, into: &planes)
      AESBitslice.insert(second.block, slot: 1, into: &planes)
      var remaining = count
      while remaining > 0 {
        kernel.encrypt(&planes)
        remaining -= 1
      }
      first = AESWords(AESBitslice.extractBlock(slot: 0, from: planes))
      second = AESWords(AESBitslice.extractBlock(slot: 1, from: planes))
    }
  }
}

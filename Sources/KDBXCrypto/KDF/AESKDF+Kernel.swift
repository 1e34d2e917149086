// The AES-KDF inner loops: repeated AES-256-ECB encryption of the two 16-byte halves.
//
// Both loops run on a private copy of the tables and the key schedule in one allocation, so a single base register
// addresses the round tables, the S-box and the round keys at constant displacements (with the three arrays of
// `AESKernel` the loop needs three pointers besides the state, and the spilled key pointer is reloaded in front of
// every round-key load, on the critical path). The copy (4.5 KiB for one half, 17 KiB for two) is made once per
// call, that is once per progress step of 65 536 rounds by default.
//
// The two-half loop (`AESKDFPairKernel`) packs column j of both halves into one 64-bit word, the first half in the
// low 32 bits: the tables hold each Te entry twice, once in the low and once in the high half of a 64-bit word, so
// eight lookups and one 64-bit XOR each build a new column of both blocks at once (16 KiB of tables, inside L1). It
// keeps four state words live instead of eight, which leaves LLVM enough registers to spill little, and it XORs
// each round key once for both halves. Each input column is consumed by its eight lookups before the next one is
// read (ShiftRows is in where the lookups land), which keeps fewer extracted bytes live than building output column
// by output column.
//
// Measured 2026-12-02 on the 2-vCPU AMD EPYC (Zen 4), AES-KDF rounds per second against the portable C T-table
// anchor in the same run, alternating: three table pointers and eight state words 0.87-0.95x; one base pointer
// 1.03-1.12x; the packed pair loop 1.17-1.23x. Slower, and not kept: fully unrolling the 13 rounds with the keys at
// constant offsets (0.96-0.98x, more spills), separate key copies per half (0.92x), the unpacked state in input
// column order (more spills), and reading half of the index bytes back from a stored copy of the state (a third
// fewer instructions, but 0.98-1.08x: the store-to-load forwarding latency lands on the round's critical path).

/// The encryption tables and one key schedule laid out in one allocation for the one-half loop.
///
/// Byte layout: Te0..Te3 (`0..<4096`, 1024 words), the S-box (`4096..<4352`), the encryption schedule
/// (`4352..<4592`, 60 words).
struct AESKDFTables: ~Copyable {
  static var sboxByteOffset: Int { 4096 }
  static var keysByteOffset: Int { 4352 }
  static var byteCount: Int { 4592 }

  // SAFETY: this value's own allocation of byteCount bytes (64-aligned, so every region is aligned for its
  // type), made in init and freed once in deinit; ~Copyable, so no second owner can free it.
  private let base: UnsafeMutableRawPointer

  /// Copies the shared tables and `keys` (the 60-word encryption schedule).
  init(keys: [UInt32]) {
    precondition(keys.count == 60, "AES-256 has a 60-word key schedule")
    let tables = AESTables.shared
    // SAFETY: the key count (60) is checked above, so the copies below fill exactly the laid-out regions.
    base = UnsafeMutableRawPointer.allocate(byteCount: Self.byteCount, alignment: 64)
    // SAFETY: the three regions are disjoint and inside the allocation; each is bound to its element type before
    // it is written and read only through that type: 1024 words of Te0..Te3 (words[0..<1024]), 256 S-box bytes
    // (bytes[0..<256]) and the 60 keys.
    let words = base.bindMemory(to: UInt32.self, capacity: 1024)
    tables.words.withUnsafeBufferPointer { source in
      for index in 0..<1024 { (words + index).initialize(to: source[index]) }
    }
    let sbox = (base + Self.sboxByteOffset).bindMemory(to: UInt8.self, capacity: 256)
    tables.bytes.withUnsafeBufferPointer { source in
      for index in 0..<256 { (sbox + index).initialize(to: source[index]) }
    }
    let schedule = (base + Self.keysByteOffset).bindMemory(to: UInt32.self, capacity: 60)
    for index in 0..<60 { (schedule + index).initialize(to: keys[index]) }
  }

  deinit { base.deallocate() }

  /// Runs `body` with an `AESKernel` whose three pointers all point into this buffer.
  func withKernel<R>(_ body: (AESKernel) -> R) -> R {
    // SAFETY: the regions were bound in init to these types and have the sizes AESKernel reads (tables at
    // byte + 1024 * table, S-box bytes 0...255, keys 0..<60).
    let words = UnsafePointer(base.assumingMemoryBound(to: UInt32.self))
    let bytes = UnsafePointer((base + Self.sboxByteOffset).assumingMemoryBound(to: UInt8.self))
    let keys = UnsafePointer((base + Self.keysByteOffset).assumingMemoryBound(to: UInt32.self))
    return body(AESKernel(keys: keys, words: words, bytes: bytes))
  }
}

/// The encryption tables and one key schedule for the two-half loop, in one allocation.
///
/// Layout in 8-byte entries: Te0..Te3 in the low halves (`0..<1024`, high halves zero), Te0..Te3 in the high halves
/// (`1024..<2048`, low halves zero), the key schedule with each word in both halves (`2048..<2108`); then the S-box
/// bytes (`16 864..<17 120`).
struct AESKDFPairTables: ~Copyable {
  static var highTables: Int { 1024 }
  static var keys: Int { 2048 }
  static var sboxByteOffset: Int { 2108 * 8 }
  static var byteCount: Int { 2108 * 8 + 256 }

  // SAFETY: this value's own allocation of byteCount bytes (64-aligned, so every region is aligned for its
  // type), made in init and freed once in deinit; ~Copyable, so no second owner can free it.
  private let base: UnsafeMutableRawPointer

  /// Copies the shared round tables and S-box and `keys` (the 60-word encryption schedule) into the layout above.
  init(keys: [UInt32]) {
    precondition(keys.count == 60, "AES-256 has a 60-word key schedule")
    let tables = AESTables.shared
    // SAFETY: the key count (60) is checked above, so the copies below fill exactly the laid-out regions.
    base = UnsafeMutableRawPointer.allocate(byteCount: Self.byteCount, alignment: 64)
    // SAFETY: the two regions are disjoint and inside the allocation; each is bound to its element type before it
    // is written and read only through that type: 2108 entries (entries[0..<2108]) and 256 S-box bytes.
    let entries = base.bindMemory(to: UInt64.self, capacity: Self.keys + 60)
    tables.words.withUnsafeBufferPointer { source in
      for index in 0..<1024 {
        (entries + index).initialize(to: UInt64(source[index]))
        (entries + Self.highTables + index).initialize(to: UInt64(source[index]) << 32)
      }
    }
    for index in 0..<60 {
      (entries + Self.keys + index).initialize(to: UInt64(keys[index]) | UInt64(keys[index]) << 32)
    }
    let sbox = (base + Self.sboxByteOffset).bindMemory(to: UInt8.self, capacity: 256)
    // SAFETY: the shared byte table holds S and Si (512 bytes); indices below 256 read S only.
    tables.bytes.withUnsafeBufferPointer { source in
      for index in 0..<256 { (sbox + index).initialize(to: source[index]) }
    }
  }

  deinit { base.deallocate() }

  /// Runs `body` with a kernel whose pointers point into this buffer.
  func withKernel<R>(_ body: (AESKDFPairKernel) -> R) -> R {
    // SAFETY: the regions were bound in init to these types, with the sizes AESKDFPairKernel reads.
    let entries = UnsafePointer(base.assumingMemoryBound(to: UInt64.self))
    let sbox = UnsafePointer((base + Self.sboxByteOffset).assumingMemoryBound(to: UInt8.self))
    return body(AESKDFPairKernel(entries: entries, sbox: sbox))
  }
}

/// Column j of two AES states in one word: the first state's big-endian column in the low 32 bits, the second's
/// in the high 32 bits.
struct AESPairWords {
  var w0: UInt64
  var w1: UInt64
  var w2: UInt64
  var w3: UInt64

  @inline(__always)
  init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
    self.w0 = w0
    self.w1 = w1
    self.w2 = w2
    self.w3 = w3
  }

  @inline(__always)
  init(low: AESWords, high: AESWords) {
    self.init(
      UInt64(low.w0) | UInt64(high.w0) << 32, UInt64(low.w1) | UInt64(high.w1) << 32,
      UInt64(low.w2) | UInt64(high.w2) << 32, UInt64(low.w3) | UInt64(high.w3) << 32)
  }

  @inline(__always)
  var low: AESWords {
    AESWords(
      UInt32(truncatingIfNeeded: w0), UInt32(truncatingIfNeeded: w1), UInt32(truncatingIfNeeded: w2),
      UInt32(truncatingIfNeeded: w3))
  }

  @inline(__always)
  var high: AESWords {
    AESWords(
      UInt32(truncatingIfNeeded: w0 >> 32), UInt32(truncatingIfNeeded: w1 >> 32),
      UInt32(truncatingIfNeeded: w2 >> 32), UInt32(truncatingIfNeeded: w3 >> 32))
  }
}

/// AES-256 encryption of two blocks at once in `AESPairWords` form (FIPS 197 §5.1 with the T-table rounds).
struct AESKDFPairKernel {
  // SAFETY: both pointers come from AESKDFPairTables.withKernel and are used only inside its closure, while
  // the tables value (which owns them) is alive.
  let entries: UnsafePointer<UInt64>
  let sbox: UnsafePointer<UInt8>

  // SAFETY: (all lookups below) table indices are a byte (0...255) plus a multiple of 256 below 2048; key indices
  // are 2048 + 4 * round + column with round <= 14 and column <= 3, below 2108; S-box indices are bytes.

  /// Both halves' Te[table] entries for the bytes at `shift` (first block) and `shift + 32` (second block).
  @inline(__always)
  func lookup(_ table: Int, _ word: UInt64, _ shift: UInt64) -> UInt64 {
    entries[256 * table + Int(truncatingIfNeeded: (word >> shift) & 0xff)]
      ^ entries[AESKDFPairTables.highTables + 256 * table + Int(truncatingIfNeeded: (word >> (shift + 32)) & 0xff)]
  }

  /// One full round (SubBytes, ShiftRows, MixColumns, AddRoundKey) of both blocks, input column by input column:
  /// byte 3 of column j goes to output j through Te0, byte 2 to output j - 1 through Te1, byte 1 to output j - 2
  /// through Te2 and byte 0 to output j + 1 through Te3.
  @inline(__always)
  func round(_ s: AESPairWords, _ round: Int) -> AESPairWords {
    let k = entries + AESKDFPairTables.keys + 4 * round
    var n0 = k[0]
    var n1 = k[1]
    var n2 = k[2]
    var n3 = k[3]
    n0 ^= lookup(0, s.w0, 24)
    n3 ^= lookup(1, s.w0, 16)
    n2 ^= lookup(2, s.w0, 8)
    n1 ^= lookup(3, s.w0, 0)
    n1 ^= lookup(0, s.w1, 24)
    n0 ^= lookup(1, s.w1, 16)
    n3 ^= lookup(2, s.w1, 8)
    n2 ^= lookup(3, s.w1, 0)
    n2 ^= lookup(0, s.w2, 24)
    n1 ^= lookup(1, s.w2, 16)
    n0 ^= lookup(2, s.w2, 8)
    n3 ^= lookup(3, s.w2, 0)
    n3 ^= lookup(0, s.w3, 24)
    n2 ^= lookup(1, s.w3, 16)
    n1 ^= lookup(2, s.w3, 8)
    n0 ^= lookup(3, s.w3, 0)
    return AESPairWords(n0, n1, n2, n3)
  }

  /// The last round (no MixColumns) of one block in `AESWords` form.
  @inline(__always)
  func finalRound(_ s: AESWords, _ k: AESWords) -> AESWords {
    let b = sbox
    @inline(__always) func column(_ a: UInt32, _ c: UInt32, _ d: UInt32, _ e: UInt32) -> UInt32 {
      UInt32(b[Int(a >> 24)]) << 24 | UInt32(b[Int((c >> 16) & 0xff)]) << 16
        | UInt32(b[Int((d >> 8) & 0xff)]) << 8 | UInt32(b[Int(e & 0xff)])
    }
    return AESWords(
      column(s.w0, s.w1, s.w2, s.w3) ^ k.w0, column(s.w1, s.w2, s.w3, s.w0) ^ k.w1,
      column(s.w2, s.w3, s.w0, s.w1) ^ k.w2, column(s.w3, s.w0, s.w1, s.w2) ^ k.w3)
  }

  /// Encrypts two independent blocks.
  @inline(__always)
  func encrypt(_ a: inout AESWords, _ b: inout AESWords) {
    let k = entries + AESKDFPairTables.keys
    var s = AESPairWords(low: a, high: b)
    s = AESPairWords(s.w0 ^ k[0], s.w1 ^ k[1], s.w2 ^ k[2], s.w3 ^ k[3])
    var index = 1
    while index < 14 {
      s = round(s, index)
      index += 1
    }
    let last = AESPairWords(k[56], k[57], k[58], k[59]).low
    a = finalRound(s.low, last)
    b = finalRound(s.high, last)
  }
}

extension AES {
  /// Encrypts both halves `count` times each, both in one `AESPairWords` state.
  @usableFromInline
  func encryptRepeatedly(_ first: inout AESWords, _ second: inout AESWords, count: UInt64) {
    let tables = AESKDFPairTables(keys: encryptionKeys)
    tables.withKernel { kernel in
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
    let tables = AESKDFTables(keys: encryptionKeys)
    tables.withKernel { kernel in
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

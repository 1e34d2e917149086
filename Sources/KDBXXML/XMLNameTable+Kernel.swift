// Interning of element and attribute names. A KeePass document repeats a few dozen names millions of times;
// handing out one shared `String` per distinct name avoids an allocation per long name (> 15 UTF-8 bytes) and
// makes the tree smaller. The table is bounded, so a hostile document with millions of distinct names only
// falls back to fresh strings.

/// A bounded open-addressing table from name bytes to a shared `String`.
struct XMLNameTable {
  private static let slotCount = 1024
  private static let maximumEntries = 512
  private static let maximumInternedLength = 64

  private var slots: [Int32]
  // Entries as parallel arrays, so that probing reads plain integers: hash << 32 | byte count, the start of the
  // name's bytes in `storage`, and the shared string.
  private var keys: [UInt64] = []
  private var starts: [Int] = []
  private var names: [String] = []
  private var storage: [UInt8] = []

  init() {
    slots = [Int32](repeating: -1, count: XMLNameTable.slotCount)
  }

  /// The shared string for the (already validated) UTF-8 name `bytes[start..<end]`.
  // SAFETY: `input` is the reader's lent document buffer, used for this call only; the precondition below puts
  // start..<end inside it before any read, and the bytes are copied into `storage` before returning. The probe
  // loop ends: at most 512 of the 1024 slots are ever filled.
  mutating func name(_ input: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String {
    precondition(start >= 0 && start <= end && end <= input.count)
    let count = end - start
    // SAFETY: start...end lies within input (checked above); a zero-length name gives an empty buffer.
    let bytes = UnsafeBufferPointer(rebasing: input[start..<end])
    if count > XMLNameTable.maximumInternedLength { return String(decoding: bytes, as: UTF8.self) }
    let hash = XMLNameTable.hash(input, from: start, count: count)
    let key = UInt64(hash) << 32 | UInt64(count)
    let mask = XMLNameTable.slotCount - 1
    // Masked before the conversion: on 32-bit platforms (wasm32) Int(hash) traps for hashes of 2^31 and above.
    var slot = Int(hash & UInt32(mask))
    while true {
      let index = Int(slots[slot])
      if index < 0 { break }
      if keys[index] == key && equal(bytes, starts[index]) { return names[index] }
      slot = (slot + 1) & mask
    }
    let name = String(decoding: bytes, as: UTF8.self)
    if keys.count < XMLNameTable.maximumEntries {
      slots[slot] = Int32(keys.count)
      keys.append(key)
      starts.append(storage.count)
      names.append(name)
      storage.append(contentsOf: bytes)
    }
    return name
  }

  /// A hash of the name from at most two 8-byte loads (names of 8 bytes or more) or its bytes.
  @inline(__always)
  // SAFETY: called only from name(_:from:to:) after its precondition (start + count <= input.count).
  private static func hash(_ input: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> UInt32 {
    guard let base = input.baseAddress else { return 0 }
    var mixed: UInt64
    if count >= 8 {
      // SAFETY: start + count <= input.count (checked by the caller) and count >= 8, so both 8-byte loads lie
      // within the name.
      let first = UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self)
      let last = UnsafeRawPointer(base + start + count - 8).loadUnaligned(as: UInt64.self)
      mixed = first &* 0x9E37_79B9_7F4A_7C15 ^ (last &+ UInt64(count)) &* 0xC2B2_AE3D_27D4_EB4F
    } else {
      mixed = UInt64(count)
      var index = 0
      while index < count {
        // SAFETY: index < count and start + count <= input.count.
        mixed = mixed << 8 | UInt64(base[start + index])
        index += 1
      }
      mixed = mixed &* 0x9E37_79B9_7F4A_7C15
    }
    return UInt32(truncatingIfNeeded: mixed >> 32)
  }

  private func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
    storage.withUnsafeBufferPointer { stored in
      guard let left = bytes.baseAddress, let base = stored.baseAddress else { return bytes.isEmpty }
      // SAFETY: entries only record ranges that were appended to storage, and bytes.count equals the entry's count
      // (its key matched), so start..<start+bytes.count lies within stored.
      let right = base + start
      let count = bytes.count
      var offset = 0
      while offset + 8 <= count {
        let x = UnsafeRawPointer(left + offset).loadUnaligned(as: UInt64.self)
        let y = UnsafeRawPointer(right + offset).loadUnaligned(as: UInt64.self)
        if x != y { return false }
        offset += 8
      }
      while offset < count {
        if left[offset] != right[offset] { return false }
        offset += 1
      }
      return true
    }
  }
}

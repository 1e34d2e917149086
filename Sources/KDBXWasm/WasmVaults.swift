import KDBX
import KDBXBase
import KDBXCrypto

/// The vaults the host has opened, by handle (1, 2, ...), and the result buffer of the last call.
///
/// The module is single-threaded: a Web Worker or a Node process owns one instance and calls it from one thread.
enum WasmVaults {
  /// An opened vault, the key it was opened with, and whether it changed since it was opened or saved.
  struct Vault {
    var opened: OpenedDatabase
    var key: CompositeKey
  }

  // SAFETY: nonisolated(unsafe) because the module is single-threaded (no shared memory, no threads in the
  // wasm build): every export runs to completion on the one thread that owns the instance, so no access overlaps.
  nonisolated(unsafe) static var vaults: [Vault?] = []

  static func add(_ vault: Vault) -> Int32 {
    if let free = vaults.firstIndex(where: { $0 == nil }) {
      vaults[free] = vault
      return Int32(free + 1)
    }
    vaults.append(vault)
    return Int32(vaults.count)
  }

  static func vault(_ handle: Int32) throws(WasmFailure) -> Vault {
    guard handle >= 1, Int(handle) <= vaults.count, let vault = vaults[Int(handle) - 1] else {
      throw WasmFailure(.badRequest, "no open vault with handle \(handle)")
    }
    return vault
  }

  /// Lets `change` change the vault `handle`, and keeps the changed vault when `change` returns (one that throws
  /// leaves the vault as it was).
  static func modify<Result>(
    _ handle: Int32, _ change: (inout Vault) throws(WasmFailure) -> Result
  ) throws(WasmFailure) -> Result {
    var changed = try vault(handle)
    let result = try change(&changed)
    if handle >= 1, Int(handle) <= vaults.count { vaults[Int(handle) - 1] = changed }
    return result
  }

  static func close(_ handle: Int32) -> Bool {
    guard handle >= 1, Int(handle) <= vaults.count, vaults[Int(handle) - 1] != nil else { return false }
    vaults[Int(handle) - 1] = nil
    while let last = vaults.last, last == nil { vaults.removeLast() }
    return true
  }
}

/// The output of the last call: JSON, a value, the bytes of a saved file or an error message. The host reads it
/// with `kdbx_result_pointer` and `kdbx_result_length` before its next call, which replaces it.
enum WasmResult {
  // SAFETY: single-threaded module (see WasmVaults.vaults): only the exports touch these, one call at a time.
  // `pointer` is nil or a live WasmHeap block of at least `length` bytes, freed only by `clear()`.
  nonisolated(unsafe) static var pointer: UnsafeMutableRawPointer?
  nonisolated(unsafe) static var length = 0

  static func set(_ bytes: [UInt8]) {
    clear()
    guard let memory = wasmMalloc(max(bytes.count, 1)) else { return }
    // SAFETY: `memory` holds at least `bytes.count` bytes, just allocated.
    bytes.withUnsafeBytes { source in
      if let base = source.baseAddress { memory.copyMemory(from: base, byteCount: source.count) }
    }
    pointer = memory
    length = bytes.count
  }

  static func set(_ text: String) { set(Array(text.utf8)) }

  /// Frees the buffer (zeroed by the heap: it may have held a password or a whole file).
  static func clear() {
    wasmFree(pointer)
    pointer = nil
    length = 0
  }
}

/// Reading the host's arguments: byte ranges of linear memory.
enum WasmArguments {
  /// `count` bytes at `pointer`, copied; an empty array for a count of 0.
  // SAFETY: the pointer is only read, by the copy below, after the count and nil checks; no pointer escapes.
  static func bytes(_ pointer: UnsafeRawPointer?, _ count: Int32, _ name: String) throws(WasmFailure) -> [UInt8] {
    guard count >= 0 else { throw WasmFailure(.badRequest, "\(name): negative length \(count)") }
    guard count > 0 else { return [] }
    guard let pointer else { throw WasmFailure(.badRequest, "\(name): no pointer for \(count) bytes") }
    // SAFETY: the host passes a range it allocated with kdbx_alloc (or any range inside linear memory); reading it
    // cannot leave the memory, which the wasm engine bounds-checks.
    return Array(UnsafeRawBufferPointer(start: pointer, count: Int(count)))
  }

  /// UTF-8 text at `pointer`; text that is not valid UTF-8 is refused rather than repaired.
  static func text(_ pointer: UnsafeRawPointer?, _ count: Int32, _ name: String) throws(WasmFailure) -> String {
    let raw = try bytes(pointer, count, name)
    let text = String(decoding: raw, as: UTF8.self)
    // Decoding repairs invalid UTF-8 with U+FFFD, so only valid input comes back unchanged.
    guard text.utf8.elementsEqual(raw) else { throw WasmFailure(.badRequest, "\(name) is not valid UTF-8") }
    return text
  }

  // SAFETY: reads the range only through `text` -> `bytes` (checked count, copied).
  static func uuid(_ pointer: UnsafeRawPointer?, _ count: Int32, _ name: String) throws(WasmFailure) -> KDBXUUID {
    let text = try text(pointer, count, name)
    guard let uuid = KDBXUUID(string: text) else { throw WasmFailure(.badRequest, "\(name) is not a UUID") }
    return uuid
  }

  /// Field names and values, as `name NUL value NUL name NUL value ...` (XML cannot store NUL, so no value holds
  /// one): in the order given, each name once.
  // SAFETY: reads the range only through `text` -> `bytes` (checked count, copied).
  static func fields(_ pointer: UnsafeRawPointer?, _ count: Int32) throws(WasmFailure) -> [(String, String)] {
    let raw = try text(pointer, count, "the fields")
    var parts = raw.split(separator: "\0", omittingEmptySubsequences: false).map { String($0) }
    if parts.last == "" && parts.count % 2 == 1 { parts.removeLast() }
    guard parts.count % 2 == 0 else {
      throw WasmFailure(.badRequest, "the fields must be name and value pairs separated by NUL")
    }
    var pairs: [(String, String)] = []
    var index = 0
    while index < parts.count {
      let name = parts[index]
      let value = parts[index + 1]
      guard !name.isEmpty else { throw WasmFailure(.badRequest, "a field has an empty name") }
      guard !pairs.contains(where: { $0.0 == name }) else {
        throw WasmFailure(.badRequest, "the field \(JSONValue.quoted(name)) is given twice")
      }
      for text in [name, value] where !isStorable(text) {
        throw WasmFailure(
          .badRequest,
          "the field \(JSONValue.quoted(name)) holds a character XML 1.0 cannot store (a control character, "
            + "U+FFFE or U+FFFF)")
      }
      pairs.append((name, value))
      index += 2
    }
    return pairs
  }

  /// Whether every character of `text` is one XML 1.0 can carry (§2.2 Char), so that the saved file stores it.
  static func isStorable(_ text: String) -> Bool {
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: continue
      default: return false
      }
    }
    return true
  }
}

import KDBX
import KDBXBase
import KDBXCrypto

// The C ABI of the WebAssembly module (`kdbx.wasm`), for the page's JavaScript glue (`Web/kdbx-wasm.mjs`).
//
// Every call that can fail returns a ``WasmStatus`` (0: success). Its output (JSON, a value, the bytes of a saved
// file, or the error message when the status is not 0) is left in the result buffer, read with
// `kdbx_result_pointer` and `kdbx_result_length` before the next call. Inputs are byte ranges the host wrote into
// memory it got from `kdbx_alloc`. Nothing here traps on bad input: lengths, handles, UUIDs and text are checked,
// and the library's errors come back as a status and a message.

/// Memory for the host to write an argument into; 0 when the module's memory cap is reached.
// SAFETY: the pointer is a block of at least `count` bytes from WasmHeap (16-byte aligned), or nil; the host
// owns it until kdbx_free. A negative count is refused before the Int conversion.
@_expose(wasm, "kdbx_alloc")
@_cdecl("kdbx_alloc")
public func kdbxAlloc(_ count: Int32) -> UnsafeMutableRawPointer? {
  guard count >= 0 else { return nil }
  return wasmMalloc(Int(count))
}

/// Gives back memory from `kdbx_alloc` (zeroed: it may have held a password).
// SAFETY: WasmHeap.release checks the pointer is inside the heap and carries one of its header tags before
// touching it; a pointer the heap did not hand out (or nil) is left alone.
@_expose(wasm, "kdbx_free")
@_cdecl("kdbx_free")
public func kdbxFree(_ pointer: UnsafeMutableRawPointer?) { wasmFree(pointer) }

// SAFETY: the result buffer stays allocated, with `kdbx_result_length` bytes, until the next call or
// kdbx_result_clear; the host only reads it, on the module's one thread.
@_expose(wasm, "kdbx_result_pointer")
@_cdecl("kdbx_result_pointer")
public func kdbxResultPointer() -> UnsafeMutableRawPointer? { WasmResult.pointer }

@_expose(wasm, "kdbx_result_length")
@_cdecl("kdbx_result_length")
public func kdbxResultLength() -> Int32 { Int32(clamping: WasmResult.length) }

/// Frees and zeroes the result buffer (after reading a revealed password or the bytes of a file).
@_expose(wasm, "kdbx_result_clear")
@_cdecl("kdbx_result_clear")
public func kdbxResultClear() { WasmResult.clear() }

/// Sets the most linear memory the module may own, in MiB (16 to 4095); returns the cap in force.
@_expose(wasm, "kdbx_set_memory_cap_mib")
@_cdecl("kdbx_set_memory_cap_mib")
public func kdbxSetMemoryCapMiB(_ mebibytes: Int32) -> Int32 {
  if mebibytes >= 16 && mebibytes <= 4095 { WasmHeap.capBytes = UInt(mebibytes) << 20 }
  return Int32(clamping: WasmHeap.capBytes >> 20)
}

/// The heap's figures, for tests and the page: bytes in use now, the most in use at once, and grown so far.
@_expose(wasm, "kdbx_heap_in_use")
@_cdecl("kdbx_heap_in_use")
public func kdbxHeapInUse() -> Int32 { Int32(clamping: WasmHeap.inUse) }

@_expose(wasm, "kdbx_heap_peak")
@_cdecl("kdbx_heap_peak")
public func kdbxHeapPeak() -> Int32 { Int32(clamping: WasmHeap.peakInUse) }

/// Opens a vault. `flags`: bit 0, a password is given (without it the key is the key file alone; an empty password
/// is a password); bit 1, the JSON holds protected values in clear. On success `*handleOut` is the vault's handle
/// and the result is the vault as `kdbx export --format json` writes it (protected values `null` without bit 1).
/// A wrong password or key file gives ``WasmStatus/wrongKey``, a damaged file ``WasmStatus/damaged``.
// SAFETY: the three input ranges are read only through WasmArguments.bytes, which checks each length is not
// negative and the pointer is not nil before copying; a range outside linear memory makes the engine trap, never
// read other memory. `handleOut` is checked for nil; the glue passes a kdbx_alloc block (16-aligned), and a
// misaligned address would still be stored correctly (wasm stores do not trap on alignment).
@_expose(wasm, "kdbx_open")
@_cdecl("kdbx_open")
public func kdbxOpen(
  _ file: UnsafeRawPointer?, _ fileLength: Int32, _ password: UnsafeRawPointer?, _ passwordLength: Int32,
  _ keyFile: UnsafeRawPointer?, _ keyFileLength: Int32, _ flags: Int32, _ handleOut: UnsafeMutablePointer<Int32>?
) -> Int32 {
  respond { () throws(WasmFailure) -> [UInt8] in
    guard let handleOut else { throw WasmFailure(.badRequest, "no place for the handle") }
    let bytes = try WasmArguments.bytes(file, fileLength, "the file")
    let hasPassword = flags & 1 != 0
    var passwordBytes = hasPassword ? try WasmArguments.bytes(password, passwordLength, "the password") : []
    var keyFileBytes = try WasmArguments.bytes(keyFile, keyFileLength, "the key file")
    defer {
      SecureBytes.wipe(&passwordBytes)
      SecureBytes.wipe(&keyFileBytes)
    }
    let vault = try WasmOpen.open(
      bytes, password: hasPassword ? passwordBytes : nil, keyFile: keyFileBytes.isEmpty ? nil : keyFileBytes)
    let handle = WasmVaults.add(vault)
    handleOut.pointee = handle
    return WasmOpen.json(vault.opened, revealing: flags & 2 != 0)
  }
}

/// The vault as JSON again (after edits); `flags` bit 1 reveals protected values.
@_expose(wasm, "kdbx_export_json")
@_cdecl("kdbx_export_json")
public func kdbxExportJSON(_ handle: Int32, _ flags: Int32) -> Int32 {
  respond { () throws(WasmFailure) -> [UInt8] in
    WasmOpen.json(try WasmVaults.vault(handle).opened, revealing: flags & 2 != 0)
  }
}

/// One field of an entry in clear (for "show" and "copy" of a protected value): the result is its UTF-8 text.
// SAFETY: the host's ranges are read only through WasmArguments (length not negative, pointer not nil,
// copied before use); nothing keeps a host pointer after the call.
@_expose(wasm, "kdbx_entry_field")
@_cdecl("kdbx_entry_field")
public func kdbxEntryField(
  _ handle: Int32, _ uuid: UnsafeRawPointer?, _ uuidLength: Int32, _ name: UnsafeRawPointer?, _ nameLength: Int32
) -> Int32 {
  respond { () throws(WasmFailure) -> [UInt8] in
    let entry = try WasmEdit.entry(try WasmVaults.vault(handle), try WasmArguments.uuid(uuid, uuidLength, "the entry"))
    let fieldName = try WasmArguments.text(name, nameLength, "the field name")
    guard let value = entry[field: fieldName] else {
      throw WasmFailure(.badRequest, "the entry has no field \(JSONValue.quoted(fieldName))")
    }
    switch value {
    case .plain(let text): return Array(text.utf8)
    case .protected(let protected): return protected.revealBytes()
    }
  }
}

/// The entry's current one-time password (TOTP or HOTP as KeePassXC and KeePass store them), at the host's clock:
/// `{"code", "period", "remaining"}` (`period` and `remaining` are `null` for HOTP).
// SAFETY: the host's ranges are read only through WasmArguments (length not negative, pointer not nil,
// copied before use); nothing keeps a host pointer after the call.
@_expose(wasm, "kdbx_totp")
@_cdecl("kdbx_totp")
public func kdbxTOTP(_ handle: Int32, _ uuid: UnsafeRawPointer?, _ uuidLength: Int32) -> Int32 {
  respond { () throws(WasmFailure) -> [UInt8] in
    let entry = try WasmEdit.entry(try WasmVaults.vault(handle), try WasmArguments.uuid(uuid, uuidLength, "the entry"))
    guard let seconds = Host.nowSeconds() else { throw WasmFailure(.badRequest, "the host clock gave no usable time") }
    return try WasmEdit.oneTimePassword(entry, at: seconds)
  }
}

/// Changes fields of an entry (`name NUL value NUL ...`); the previous version goes to its history, as KeePass
/// does. `Password` and fields that were protected stay protected. The result is the vault's JSON.
// SAFETY: the host's ranges are read only through WasmArguments (length not negative, pointer not nil,
// copied before use); nothing keeps a host pointer after the call.
@_expose(wasm, "kdbx_edit_entry")
@_cdecl("kdbx_edit_entry")
public func kdbxEditEntry(
  _ handle: Int32, _ uuid: UnsafeRawPointer?, _ uuidLength: Int32, _ fields: UnsafeRawPointer?, _ fieldsLength: Int32
) -> Int32 {
  respond { () throws(WasmFailure) -> [UInt8] in
    try WasmVaults.modify(handle) { vault throws(WasmFailure) in
      let entryUUID = try WasmArguments.uuid(uuid, uuidLength, "the entry")
      try WasmEdit.edit(&vault, entry: entryUUID, fields: try WasmArguments.fields(fields, fieldsLength))
      return WasmOpen.json(vault.opened, revealing: false)
    }
  }
}

/// Adds an entry with the given fields to a group (an empty UUID: the root group); the result is the new entry's
/// UUID.
// SAFETY: the host's ranges are read only through WasmArguments (length not negative, pointer not nil,
// copied before use); nothing keeps a host pointer after the call.
@_expose(wasm, "kdbx_add_entry")
@_cdecl("kdbx_add_entry")
public func kdbxAddEntry(
  _ handle: Int32, _ group: UnsafeRawPointer?, _ groupLength: Int32, _ fields: UnsafeRawPointer?, _ fieldsLength: Int32
) -> Int32 {
  respond { () throws(WasmFailure) -> [UInt8] in
    try WasmVaults.modify(handle) { vault throws(WasmFailure) in
      let groupUUID = groupLength == 0 ? nil : try WasmArguments.uuid(group, groupLength, "the group")
      let uuid = try WasmEdit.add(&vault, group: groupUUID, fields: try WasmArguments.fields(fields, fieldsLength))
      return Array(uuid.description.utf8)
    }
  }
}

/// Saves the vault with the key and settings it was opened with (fresh seeds, IV and salt from the host's random
/// source) and checks the new file with every integrity layer before handing it over: the result is the file.
@_expose(wasm, "kdbx_save")
@_cdecl("kdbx_save")
public func kdbxSave(_ handle: Int32) -> Int32 {
  respond { () throws(WasmFailure) -> [UInt8] in
    try WasmOpen.save(try WasmVaults.vault(handle))
  }
}

/// Forgets a vault (its memory is zeroed as it is freed). Returns 0, or ``WasmStatus/badRequest`` for an unknown
/// handle.
@_expose(wasm, "kdbx_close")
@_cdecl("kdbx_close")
public func kdbxClose(_ handle: Int32) -> Int32 {
  WasmVaults.close(handle) ? WasmStatus.ok.rawValue : WasmStatus.badRequest.rawValue
}

/// The library's known-answer self-test, as `kdbx selftest --json` runs it: the result is
/// `{"passed", "checks": [{primitive, source, passed, expected, actual, error?}]}`; the status is
/// ``WasmStatus/selfTestFailed`` when a check failed.
@_expose(wasm, "kdbx_selftest")
@_cdecl("kdbx_selftest")
public func kdbxSelfTest() -> Int32 {
  let report = KDBXSelfTest.run()
  WasmResult.set(JSONValue.object([("passed", .bool(report.passed)), ("checks", report.checksJSON)]).rendered())
  return report.passed ? WasmStatus.ok.rawValue : WasmStatus.selfTestFailed.rawValue
}

/// Argon2id with a fixed password and salt, for timing the module against the native build (README figures):
/// password "password", salt "somesalt" as `kdbx-bench --derive` uses them; the result is the 32-byte tag in hex.
@_expose(wasm, "kdbx_bench_argon2id")
@_cdecl("kdbx_bench_argon2id")
public func kdbxBenchArgon2id(_ memoryKiB: Int32, _ iterations: Int32, _ lanes: Int32) -> Int32 {
  respond { () throws(WasmFailure) -> [UInt8] in
    do throws(CryptoError) {
      let parameters = try Argon2.Parameters(
        variant: .id, iterations: Int(iterations), memoryKiB: Int(memoryKiB), lanes: Int(lanes), outputLength: 32)
      let tag = try WasmPrimitives.argon2(
        password: Array("password".utf8), salt: Array("somesalt".utf8), parameters: parameters)
      return Array(Hex.encode(tag).utf8)
    } catch {
      throw WasmFailure(KDBXError.crypto(error))
    }
  }
}

/// Runs `body`, leaves its output or its error message in the result buffer and returns the status.
func respond(_ body: () throws(WasmFailure) -> [UInt8]) -> Int32 {
  do {
    let output = try body()
    WasmResult.set(output)
    return WasmStatus.ok.rawValue
  } catch {
    WasmResult.set(error.message)
    return error.status.rawValue
  }
}

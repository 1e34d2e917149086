import KDBX

/// What the module asks of its JavaScript host (import module `env`), instead of WASI: linear memory growth, the
/// secure random source (`crypto.getRandomValues`), the wall clock (`Date.now()`) and the key derivation's
/// progress. `Web/kdbx-wasm.mjs` provides them.
enum Host {
  /// The current size of the linear memory in 64 KiB pages.
  static func memoryPages() -> Int32 { hostMemoryPages() }

  /// Grows the linear memory by `pages` 64 KiB pages: the previous size in pages, or -1 when refused.
  static func growMemory(pages: Int32) -> Int32 { hostMemoryGrow(pages) }

  // SAFETY: the callers pass `count` writable bytes at `pointer` (arc4random_buf's contract); the host writes
  // exactly min(count, Int32.max) bytes there through its view of linear memory and keeps no reference.
  /// Fills `count` bytes at `pointer` from the host's cryptographically secure generator.
  static func fillRandom(_ pointer: UnsafeMutableRawPointer, _ count: Int) {
    // crypto.getRandomValues takes at most 65536 bytes a call: the host splits larger requests.
    hostRandomFill(pointer, Int32(clamping: count))
  }

  /// The time in whole seconds since 1970-01-01 UTC, or `nil` when the host's clock gives no usable time (not a
  /// finite number, or outside the years 1970-9999).
  static func nowSeconds() -> Int64? {
    let milliseconds = hostNowMilliseconds()
    guard milliseconds.isFinite, milliseconds >= 0, milliseconds < 253_402_300_800_000 else { return nil }
    return Int64(milliseconds / 1000)
  }

  /// Reports the key derivation's progress (0...1); `false` asks to cancel.
  static func progress(_ fraction: Double) -> Bool { hostProgress(fraction) != 0 }
}

@_extern(wasm, module: "env", name: "memory_pages")
@_extern(c)
func hostMemoryPages() -> Int32

@_extern(wasm, module: "env", name: "memory_grow")
@_extern(c)
func hostMemoryGrow(_ pages: Int32) -> Int32

// SAFETY: the host writes `count` bytes at `pointer` and nothing else (Web/kdbx-wasm.mjs fills a Uint8Array
// view of exactly that range).
@_extern(wasm, module: "env", name: "random_fill")
@_extern(c)
func hostRandomFill(_ pointer: UnsafeMutableRawPointer, _ count: Int32)

@_extern(wasm, module: "env", name: "now_ms")
@_extern(c)
func hostNowMilliseconds() -> Double

@_extern(wasm, module: "env", name: "kdf_progress")
@_extern(c)
func hostProgress(_ fraction: Double) -> Int32

/// The source of `SystemRandomNumberGenerator` in Embedded Swift, which the library uses for seeds, IVs, salts and
/// the pads of protected values: the host's `crypto.getRandomValues`.
// SAFETY: the Swift runtime passes a buffer of `count` writable bytes (the C contract); nil or an empty
// count returns before any write.
@_cdecl("arc4random_buf")
func wasmArc4randomBuf(_ pointer: UnsafeMutableRawPointer?, _ count: Int) {
  guard let pointer, count > 0 else { return }
  Host.fillRandom(pointer, count)
}

/// The model's clock (modification times of edits): the host's wall clock, in whole seconds.
struct HostClock: WallClock {
  func now() -> Timestamp { Timestamp(unixSeconds: Host.nowSeconds() ?? 0) }
}

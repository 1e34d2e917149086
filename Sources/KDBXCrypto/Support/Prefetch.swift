// Cache prefetch hints (the x86-64 PREFETCHT0/PREFETCHW and ARM64 PRFM instructions).
//
// The Swift standard library has no prefetch API, so this file is the library's one use of the compiler's
// `Builtin` module, which the `BuiltinModule` experimental feature in Package.swift makes importable. It is not a
// dependency: `Builtin` is the compiler's own layer under the standard library, and links nothing. A compiler
// that lacks the feature builds the fallback below, which does nothing; results never depend on prefetching.

#if hasFeature(BuiltinModule)
  import Builtin

  /// Hints that the 64-byte cache line holding `address` will soon be read: the CPU starts loading it without
  /// waiting for it. A hint only: it never faults, even for an address that is not mapped, and never changes memory.
  @inline(__always)
  func prefetchForReading(_ address: UnsafeRawPointer) {
    // SAFETY: llvm.prefetch(address, rw = 0, locality = 3 (keep in all cache levels), cache = 1 (data)) reads
    // nothing architecturally and cannot trap; the three arguments are the immediate constants LLVM requires.
    Builtin.int_prefetch_RawPointer(address._rawValue, (0 as Int32)._value, (3 as Int32)._value, (1 as Int32)._value)
  }

  /// Hints that the cache line holding `address` will soon be written (PREFETCHW on x86-64).
  @inline(__always)
  func prefetchForWriting(_ address: UnsafeRawPointer) {
    // SAFETY: as above, with rw = 1; the line is fetched for ownership, and its contents are unchanged.
    Builtin.int_prefetch_RawPointer(address._rawValue, (1 as Int32)._value, (3 as Int32)._value, (1 as Int32)._value)
  }
#else
  @inline(__always)
  func prefetchForReading(_ address: UnsafeRawPointer) {}

  @inline(__always)
  func prefetchForWriting(_ address: UnsafeRawPointer) {}
#endif

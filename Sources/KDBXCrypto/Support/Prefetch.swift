// Cache prefetch hints: the x86-64 PREFETCHT0/PREFETCHW and ARM64 PRFM instructions.
//
// The Swift standard library has no prefetch API, and a load cannot stand in for one: a load that misses the cache
// holds up every later instruction until its line arrives, while a prefetch lets them run. Argon2's loop waits on
// one such miss per block (the reference block), so this file reaches LLVM's target-independent `llvm.prefetch`
// intrinsic directly: `@_silgen_name` gives a body-less Swift declaration that symbol name, and LLVM treats a call
// to a function named `llvm.prefetch.p0` as the intrinsic. Nothing is imported or linked, no compiler flag is
// needed, and it builds in Embedded Swift. Where a target has no prefetch instruction (WebAssembly), LLVM drops the
// call. Results never depend on prefetching: it only changes when memory is read, never what is read.

// SAFETY: the declaration matches the intrinsic `void @llvm.prefetch.p0(ptr address, i32 rw, i32 locality,
// i32 cacheType)`; the three integers must be constants, which the two wrappers below pass.
@_silgen_name("llvm.prefetch.p0")
private func llvmPrefetch(_ address: UnsafeRawPointer, _ rw: Int32, _ locality: Int32, _ cacheType: Int32)

/// Hints that the 64-byte cache line holding `address` will soon be read: the processor starts loading it without
/// waiting for it. A hint only: it never faults, even for an address that is not mapped, and never changes memory.
@inline(__always)
func prefetchForReading(_ address: UnsafeRawPointer) {
  // rw 0 (read), locality 3 (keep in every cache level), cache type 1 (data).
  llvmPrefetch(address, 0, 3, 1)
}

/// Hints that the cache line holding `address` will soon be written (PREFETCHW on x86-64): the line is fetched for
/// ownership, and its contents are unchanged.
@inline(__always)
// SAFETY: a prefetch is a hint: it never faults, reads nor writes, whatever the address.
func prefetchForWriting(_ address: UnsafeRawPointer) {
  llvmPrefetch(address, 1, 3, 1)
}

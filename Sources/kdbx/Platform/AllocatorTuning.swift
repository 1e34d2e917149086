// glibc's allocator settings for a short process that handles a few large buffers (the decrypted, decompressed
// and serialized payloads of a vault, several MiB each).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// By default glibc's `malloc` serves each block above 128 KiB (a threshold that grows to at most 32 MiB as such
/// blocks are freed) from a fresh `mmap`, and returns freed memory at the top of the heap to the system beyond
/// 128 KiB; a command that opens and saves a large vault then takes a page fault for every 4 KiB of every payload
/// buffer, again for each new buffer. With blocks up to 32 MiB served from the heap and freed memory kept for the
/// next buffer, `mkdir` on a 5,000-entry vault takes a third fewer page faults (peak memory unchanged: the same
/// buffers are live at the peak). Other C libraries are left as they are.
enum AllocatorTuning {
  static func apply() {
    #if canImport(Glibc)
      // mallopt(3) is declared in <malloc.h>, which the Glibc module does not import: look it up by name, with the
      // parameter numbers of that header (M_TRIM_THRESHOLD -1, M_TOP_PAD -2, M_MMAP_THRESHOLD -3).
      // RTLD_DEFAULT is the null handle in glibc.
      guard let symbol = dlsym(nil, "mallopt") else { return }
      // SAFETY: glibc's mallopt is `int mallopt(int param, int value)`, a C function of that exact type.
      let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
      // Each call returns 0 when refused (M_MMAP_THRESHOLD's maximum is 32 MiB on 64-bit systems); the default
      // then stays, which is only slower.
      _ = mallopt(-3, 32 << 20)
      _ = mallopt(-1, 512 << 20)
      _ = mallopt(-2, 64 << 20)
    #endif
  }
}

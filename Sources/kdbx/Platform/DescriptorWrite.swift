// Platform concern: writing to a file descriptor, named apart from the types' own `write` methods.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// `write(2)`: writes up to `count` bytes from `buffer` to `descriptor`; returns the count written, or -1 with
/// `errno` set.
// SAFETY: the caller passes a pointer to at least `count` readable bytes (a `withUnsafeBytes` region of its array),
// valid for the duration of the call; `write` only reads them.
func descriptorWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}

// The two C runtime functions LLVM's code for wasm32 calls and the module has no C library for: `memcmp` (array
// comparisons of trivial elements) and compiler-rt's `__multi3` (128-bit products, from 64-bit multiplications
// with an overflow check). `memcpy`, `memmove` and `memset` are not needed: the target's bulk-memory instructions
// do them.

// SAFETY: see the note in the body: reads `count` bytes of each range, nothing else.
/// `memcmp`: the sign of the first differing byte, 0 when the ranges are equal.
@_cdecl("memcmp")
func wasmMemcmp(_ lhs: UnsafeRawPointer?, _ rhs: UnsafeRawPointer?, _ count: Int) -> Int32 {
  guard count > 0, let lhs, let rhs else { return 0 }
  // SAFETY: the caller (compiled Swift) passes two ranges of `count` readable bytes, as C's contract requires.
  for index in 0..<count {
    let left = lhs.load(fromByteOffset: index, as: UInt8.self)
    let right = rhs.load(fromByteOffset: index, as: UInt8.self)
    if left != right { return left < right ? -1 : 1 }
  }
  return 0
}

/// `__multi3`: the low 128 bits of the product of two 128-bit integers. On wasm32 the result is returned through a
/// pointer and each operand is passed as two 64-bit halves (low first). Built from 32-bit multiplications only, so
/// that it cannot call itself.
// SAFETY: compiler-rt's contract: `result` points to the caller's two UInt64 slots (16 bytes, 8-aligned)
// for the low and high halves; nil is refused.
@_cdecl("__multi3")
func wasmMulti3(
  _ result: UnsafeMutablePointer<UInt64>?, _ aLow: UInt64, _ aHigh: UInt64, _ bLow: UInt64, _ bHigh: UInt64
) {
  guard let result else { return }
  let (productHigh, productLow) = fullProduct(aLow, bLow)
  // The cross terms only reach the high half; what overflows 128 bits is dropped, as in C.
  let high = productHigh &+ (aLow &* bHigh) &+ (aHigh &* bLow)
  result[0] = productLow
  result[1] = high
}

/// The 128-bit product of two 64-bit values, from four 32 x 32 -> 64 products.
func fullProduct(_ a: UInt64, _ b: UInt64) -> (high: UInt64, low: UInt64) {
  let a0 = a & 0xFFFF_FFFF
  let a1 = a >> 32
  let b0 = b & 0xFFFF_FFFF
  let b1 = b >> 32
  let p00 = a0 &* b0
  let p01 = a0 &* b1
  let p10 = a1 &* b0
  let p11 = a1 &* b1
  let middle = (p00 >> 32) &+ (p01 & 0xFFFF_FFFF) &+ (p10 & 0xFFFF_FFFF)
  let low = (middle << 32) | (p00 & 0xFFFF_FFFF)
  let high = p11 &+ (p01 >> 32) &+ (p10 >> 32) &+ (middle >> 32)
  return (high, low)
}

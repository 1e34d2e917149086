/// The memory allocator of the WebAssembly module: `malloc`, `calloc`, `realloc`, `posix_memalign` and `free`, which
/// Embedded Swift calls for every array, string and class instance, over the module's linear memory.
///
/// There is no C library in the module (no WASI): the heap starts where the linker's static data and stack end
/// (the memory's initial size) and grows with `memory.grow`, which the page's JavaScript performs for us
/// (``Host/growMemory(pages:)``), never past ``capBytes``. A request that would pass the cap, or that the browser
/// refuses, returns `nil`; the library's own large allocations (Argon2's block memory, through
/// ``WasmPrimitives/blockMemory``) then fail with an error instead of a trap.
///
/// Blocks carry a 16-byte header before their 16-byte-aligned payload:
/// - small blocks (up to 32 KiB with the header) come in eleven power-of-two sizes, 32 B to 32 KiB, each with its
///   own list of freed blocks for reuse;
/// - large blocks are whole 4 KiB granules, kept on one address-ordered free list whose neighbours merge, and the
///   top of the heap is given back to the bump pointer when freed, so that a 64 MiB Argon2 area is reused by the
///   next open instead of added to.
///
/// Every freed block is zeroed (passwords, keys and plaintext live in these blocks). The module is single-threaded
/// (no shared memory), so the state needs no lock.
enum WasmHeap {
  static let pageSize: UInt = 65_536
  static let headerSize: UInt = 16
  static let granule: UInt = 4_096
  static let smallClassCount = 11
  static let largestSmallBlock: UInt = 32_768
  /// Tags in the first word of a header (the second holds the size or class); a tag that is not one of these means
  /// `free` was given a pointer this heap did not hand out, and the block is left alone.
  static let smallTag: UInt32 = 0x5357_4153  // "SWAS"
  static let largeTag: UInt32 = 0x5357_414C  // "SWAL"
  static let alignedTag: UInt32 = 0x5357_4141  // "SWAA"
  static let freeTag: UInt32 = 0x5357_4146  // "SWAF"

  // SAFETY: nonisolated(unsafe) because the module is single-threaded: no shared memory and no threads in the
  // wasm build, so the allocator's state is only ever touched by the one thread running the instance, and none of
  // these functions re-enters another while it updates them (they call no Swift that allocates).
  /// The most linear memory the module may own (default 1 GiB; the page can lower it before the first call).
  nonisolated(unsafe) static var capBytes: UInt = 1 << 30
  nonisolated(unsafe) static var start: UInt = 0
  nonisolated(unsafe) static var top: UInt = 0
  nonisolated(unsafe) static var end: UInt = 0
  /// Address of the first free large span (0: none); each holds its size and the next span's address.
  nonisolated(unsafe) static var largeFree: UInt = 0
  /// Bytes handed out and not yet freed (headers and rounding included).
  nonisolated(unsafe) static var inUse: UInt = 0
  nonisolated(unsafe) static var peakInUse: UInt = 0

  // MARK: Raw words

  // SAFETY: every address below lies in [start, end), memory this heap grew and owns; the module has no other
  // user of that range (the linker places data and stack below the initial memory size, where `start` begins).
  @inline(__always) static func word(_ address: UInt) -> UInt32 {
    UnsafeMutableRawPointer(bitPattern: address).map { $0.load(as: UInt32.self) } ?? 0
  }

  @inline(__always) static func setWord(_ address: UInt, _ value: UInt32) {
    UnsafeMutableRawPointer(bitPattern: address)?.storeBytes(of: value, as: UInt32.self)
  }

  @inline(__always) static func zero(_ address: UInt, _ count: UInt) {
    guard count > 0 else { return }
    UnsafeMutableRawPointer(bitPattern: address)?.initializeMemory(as: UInt8.self, repeating: 0, count: Int(count))
  }

  static func roundUp(_ value: UInt, _ multiple: UInt) -> UInt? {
    let (sum, overflow) = value.addingReportingOverflow(multiple - 1)
    return overflow ? nil : sum / multiple * multiple
  }

  // MARK: Growth

  /// Sets up the heap at the end of the initial memory: eleven list heads, then the bump region.
  static func setUp() -> Bool {
    if start != 0 { return true }
    let base = UInt(Host.memoryPages()) * pageSize
    guard base > 0 else { return false }
    start = base
    end = base
    top = base
    // The list heads: 4 bytes per class, in the first 64 bytes (grown memory is zero: every list starts empty).
    guard reserve(64) else {
      start = 0
      return false
    }
    top = base + 64
    return true
  }

  /// Makes sure `[top, top + count)` is owned memory, growing the linear memory within the cap.
  static func reserve(_ count: UInt) -> Bool {
    let (needed, overflow) = top.addingReportingOverflow(count)
    guard !overflow else { return false }
    if needed <= end { return true }
    guard needed <= capBytes, let grownEnd = roundUp(needed, pageSize) else { return false }
    let pages = (grownEnd - end) / pageSize
    guard pages <= UInt(Int32.max), Host.growMemory(pages: Int32(pages)) >= 0 else { return false }
    end = grownEnd
    return true
  }

  /// Bytes the heap could still hand out: what it holds free plus what it may still grow by.
  static var availableBytes: UInt {
    guard setUp() else { return 0 }
    let grown = end - start
    let free = grown > inUse ? grown - inUse : 0
    return free + (capBytes > end ? capBytes - end : 0)
  }

  // MARK: Allocation

  static func allocate(_ size: UInt) -> UInt {
    guard setUp() else { return 0 }
    let (total, overflow) = max(size, 1).addingReportingOverflow(headerSize)
    guard !overflow else { return 0 }
    let address = total <= largestSmallBlock ? allocateSmall(total) : allocateLarge(total)
    if address != 0 {
      let blockSize = blockSize(of: address)
      inUse += blockSize
      peakInUse = max(peakInUse, inUse)
    }
    return address
  }

  static func sizeClass(_ total: UInt) -> Int {
    var size: UInt = 32
    var index = 0
    while size < total {
      size <<= 1
      index += 1
    }
    return index
  }

  static func headAddress(_ index: Int) -> UInt { start + UInt(index) * 4 }

  static func allocateSmall(_ total: UInt) -> UInt {
    let index = sizeClass(total)
    let size: UInt = 32 << UInt(index)
    var block = UInt(word(headAddress(index)))
    if block != 0 {
      setWord(headAddress(index), word(block + 4))
    } else {
      guard reserve(size) else { return 0 }
      block = top
      top += size
    }
    setWord(block, smallTag)
    setWord(block + 4, UInt32(index))
    setWord(block + 8, 0)
    return block + headerSize
  }

  static func allocateLarge(_ total: UInt) -> UInt {
    guard let size = roundUp(total, granule), size <= UInt(UInt32.max) else { return 0 }
    // First fit on the address-ordered free list.
    var previous: UInt = 0
    var span = largeFree
    while span != 0 {
      let spanSize = UInt(word(span + 4))
      let next = UInt(word(span + 8))
      if spanSize >= size {
        if spanSize > size {
          let rest = span + size
          setWord(rest, freeTag)
          setWord(rest + 4, UInt32(spanSize - size))
          setWord(rest + 8, UInt32(next))
          link(previous, to: rest)
        } else {
          link(previous, to: next)
        }
        return markLarge(span, size)
      }
      previous = span
      span = next
    }
    // The top of the heap is a granule boundary only after large blocks; small blocks leave it 16-aligned.
    guard let alignedTop = roundUp(top, granule), reserve(alignedTop - top + size) else { return 0 }
    if alignedTop > top {
      // The gap below the granule boundary becomes small blocks of the largest class that fit, for reuse.
      carveSmall(from: top, to: alignedTop)
    }
    top = alignedTop + size
    return markLarge(alignedTop, size)
  }

  static func markLarge(_ span: UInt, _ size: UInt) -> UInt {
    setWord(span, largeTag)
    setWord(span + 4, UInt32(size))
    setWord(span + 8, 0)
    return span + headerSize
  }

  static func link(_ previous: UInt, to next: UInt) {
    if previous == 0 {
      largeFree = next
    } else {
      setWord(previous + 8, UInt32(next))
    }
  }

  /// Puts `[from, to)` (16-aligned, less than one granule) on the small free lists, largest classes first.
  static func carveSmall(from: UInt, to: UInt) {
    var address = from
    while to - address >= 32 {
      var index = smallClassCount - 1
      while (32 << UInt(index)) > to - address { index -= 1 }
      let size: UInt = 32 << UInt(index)
      setWord(address, freeTag)
      setWord(address + 4, word(headAddress(index)))
      setWord(headAddress(index), UInt32(address))
      address += size
    }
  }

  static func blockSize(of payload: UInt) -> UInt {
    let header = payload - headerSize
    switch word(header) {
    case smallTag: return 32 << UInt(word(header + 4) & 15)
    case largeTag: return UInt(word(header + 4))
    default: return 0
    }
  }

  // MARK: Release

  static func release(_ payload: UInt) {
    guard payload >= start + headerSize, payload < end else { return }
    let header = payload - headerSize
    switch word(header) {
    case alignedTag:
      let offset = UInt(word(header + 4))
      guard offset <= payload - start else { return }
      setWord(header, 0)
      release(payload - offset)
    case smallTag:
      let index = Int(word(header + 4))
      guard index < smallClassCount else { return }
      let size: UInt = 32 << UInt(index)
      inUse -= min(inUse, size)
      zero(header, size)
      setWord(header, freeTag)
      setWord(header + 4, word(headAddress(index)))
      setWord(headAddress(index), UInt32(header))
    case largeTag:
      let size = UInt(word(header + 4))
      inUse -= min(inUse, size)
      zero(header, size)
      releaseLarge(header, size)
    default:
      return
    }
  }

  /// Inserts a span into the address-ordered free list, merging it with free neighbours; a span that ends at the
  /// top of the heap is given back to the bump pointer instead.
  static func releaseLarge(_ span: UInt, _ size: UInt) {
    var previous: UInt = 0
    var next = largeFree
    while next != 0 && next < span {
      previous = next
      next = UInt(word(next + 8))
    }
    var start = span
    var size = size
    if previous != 0 && previous + UInt(word(previous + 4)) == start {
      // Merge into the previous span, which keeps its place in the list.
      size += UInt(word(previous + 4))
      start = previous
      zero(span, headerSize)
    } else {
      setWord(start, freeTag)
      link(previous, to: start)
    }
    if next != 0 && start + size == next {
      let nextNext = UInt(word(next + 8))
      size += UInt(word(next + 4))
      zero(next, headerSize)
      next = nextNext
    }
    if start + size == top {
      // The span is the top of the heap: the bump pointer takes it back.
      top = start
      zero(start, headerSize)
      if start == previous {
        var before: UInt = 0
        var node = largeFree
        while node != 0 && node != start {
          before = node
          node = UInt(word(node + 8))
        }
        link(before, to: next)
      } else {
        link(previous, to: next)
      }
      return
    }
    setWord(start + 4, UInt32(size))
    setWord(start + 8, UInt32(next))
  }
}

// MARK: The C allocation functions Embedded Swift links against (posix_memalign and free)

// SAFETY: allocate returns 0 (-> nil) or the payload address of a block of at least `size` bytes inside
// [start, end); negative sizes are refused before the UInt conversion.
func wasmMalloc(_ size: Int) -> UnsafeMutableRawPointer? {
  guard size >= 0 else { return nil }
  return UnsafeMutableRawPointer(bitPattern: WasmHeap.allocate(UInt(size)))
}

// SAFETY: the product is overflow-checked and both factors not negative before wasmMalloc sizes the block.
func wasmCalloc(_ count: Int, _ size: Int) -> UnsafeMutableRawPointer? {
  // Freed blocks are zeroed and fresh memory is zero, so the block is already zero.
  let (total, overflow) = count.multipliedReportingOverflow(by: size)
  guard !overflow, count >= 0, size >= 0 else { return nil }
  return wasmMalloc(total)
}

/// `free`. Named `__wrap_free` because Swift reserves the name `free` for its runtime's own declaration; the link
/// (`wasm-ld --wrap=free`, in Web/build.sh) sends the runtime's calls to `free` here.
@_cdecl("__wrap_free")
// SAFETY: release range-checks the address against [start + headerSize, end) and its header tag before
// writing anything, so a foreign pointer is ignored.
func wasmFree(_ pointer: UnsafeMutableRawPointer?) {
  guard let pointer else { return }
  WasmHeap.release(UInt(bitPattern: pointer))
}

// SAFETY: `pointer` is one this heap handed out (only the Swift runtime calls this); a block with no small
// or large tag gives capacity 0 and nil. The copy reads the old payload (capacity - headerSize bytes) and writes
// into `moved`, which holds more than that (size > old payload), before the old block is freed.
func wasmRealloc(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
  guard let pointer else { return wasmMalloc(size) }
  let payload = UInt(bitPattern: pointer)
  let capacity = WasmHeap.blockSize(of: payload)
  guard capacity > 0, size >= 0 else { return nil }
  if UInt(size) <= capacity - WasmHeap.headerSize { return pointer }
  guard let moved = wasmMalloc(size) else { return nil }
  moved.copyMemory(from: pointer, byteCount: Int(capacity - WasmHeap.headerSize))
  wasmFree(pointer)
  return moved
}

// SAFETY: `result` is the caller's slot for one pointer (checked for nil). The padded block holds
// size + alignment + 16 bytes, and `aligned` (rounded up from raw + 16) is at most raw + 16 + alignment - 1, so
// its 16-byte header lies inside the block and `size` payload bytes fit before the block's end.
@_cdecl("posix_memalign")
func wasmPosixMemalign(
  _ result: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ alignment: Int, _ size: Int
) -> Int32 {
  guard let result, alignment > 0, alignment & (alignment - 1) == 0, size >= 0 else { return 22 }  // EINVAL
  if alignment <= Int(WasmHeap.headerSize) {
    result.pointee = wasmMalloc(size)
    return result.pointee == nil ? 12 : 0  // ENOMEM
  }
  let (padded, overflow) = size.addingReportingOverflow(alignment + Int(WasmHeap.headerSize))
  guard !overflow, let raw = wasmMalloc(padded) else { return 12 }
  let rawAddress = UInt(bitPattern: raw)
  guard let aligned = WasmHeap.roundUp(rawAddress + WasmHeap.headerSize, UInt(alignment)) else { return 12 }
  WasmHeap.setWord(aligned - WasmHeap.headerSize, WasmHeap.alignedTag)
  WasmHeap.setWord(aligned - WasmHeap.headerSize + 4, UInt32(aligned - rawAddress))
  // SAFETY: `aligned` lies inside the padded block (see the note above); the slot is the caller's, non-nil.
  result.pointee = UnsafeMutableRawPointer(bitPattern: aligned)
  return 0
}

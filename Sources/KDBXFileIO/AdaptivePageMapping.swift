import KDBX
import KDBXCrypto
import Synchronization

/// How ``AdaptivePageMapping`` chooses the page size.
package enum PageMappingPolicy: Sendable, Equatable {
  /// Probe and monitor as ``AdaptivePageMapping`` describes (where transparent huge pages are enabled at all).
  case adaptive
  /// Always advise huge pages (`MADV_HUGEPAGE`), without probing.
  case hugePages
  /// Never advise huge pages: 4 KiB pages (where `enabled` is `always`, the memory opts out with
  /// `MADV_NOHUGEPAGE`).
  case smallPages
}

/// Argon2 block memory mapped straight from the kernel, whose pages are mapped ahead of the first pass in 2 MiB
/// pages while the kernel hands those out faster than 4 KiB pages, and in 4 KiB pages otherwise.
///
/// Why measure instead of deciding from the settings: whether transparent huge pages pay depends on the state of
/// the machine at the moment of the run, not only on `/sys/kernel/mm/transparent_hugepage`. Measured on a 2-core
/// KVM guest whose balloon reports free memory to the host (256 MiB mapped with `MADV_POPULATE_WRITE`):
/// - huge pages freed by another process less than about two seconds before: 36-60 ms, against 120-165 ms with
///   4 KiB pages;
/// - after a few seconds idle, when the kernel has reported its free 2 MiB blocks to the host: 300-480 ms, against
///   the same 120-165 ms with 4 KiB pages;
/// - with `defrag` set to `madvise`, a huge page that the kernel has to compact memory for can stall a fault for
///   milliseconds.
///
/// So the first part mapped is a probe: one 2 MiB unit in 4 KiB pages, the next in a huge page, each timed. Huge
/// pages are kept when they mapped at least twice as fast. Every later 4 MiB mapped in huge pages is timed against
/// the 4 KiB figure, and when the last few lose (``hugePagesLose(recentUnitNanoseconds:smallPagesUnitNanoseconds:)``)
/// the rest of the memory switches to 4 KiB pages (`MADV_NOHUGEPAGE`), as happens when the recently freed huge
/// pages run out: then some chunks map in 0.3-0.7 ms and others in 3-8 ms.
///
/// The probe costs about 2 ms when huge pages lose (one 2 MiB unit mapped the slow way). When they win, the first
/// pass, the later passes (fewer TLB misses) and `munmap` are all faster. Results never depend on the choice: it
/// changes how memory is mapped, never what it holds.
///
/// Thread safety: ``populate(_:)`` is called by several lanes at once; the choice is an atomic that moves only
/// from undecided to huge or 4 KiB pages, and from huge to 4 KiB pages. It needs `Synchronization` (macOS 15 /
/// iOS 18 on Apple systems, where huge pages do not exist anyway: see ``KDBX/StandardPrimitives/BlockMemoryProvider/mapped(policy:)``
/// for what older systems get).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
package final class AdaptivePageMapping: Sendable {
  /// How to choose the page size (``PageMappingPolicy``).
  package typealias Policy = PageMappingPolicy

  /// The page size chosen so far.
  package enum Choice: Int, Sendable, Equatable {
    /// Nothing mapped yet.
    case undecided = 0
    /// The probe is running.
    case probing = 1
    /// 2 MiB pages.
    case hugePages = 2
    /// 4 KiB pages.
    case smallPages = 3
  }

  /// The mapped memory's start address and size (an `UnsafeMutableRawBufferPointer` is not `Sendable`).
  private let address: Int
  /// The size of the mapping in bytes.
  package let byteCount: Int
  private let choiceValue: Atomic<Int>
  /// Nanoseconds the probe took to map 2 MiB in 4 KiB pages (0 until probed).
  private let smallPageUnitNanoseconds = Atomic<Int>(0)
  /// Nanoseconds the probe took to map 2 MiB in a huge page (0 until probed).
  private let hugePageUnitNanoseconds = Atomic<Int>(0)
  /// The cost of the last few chunks mapped in huge pages, in nanoseconds per 2 MiB, newest last.
  private let recentChunks = Mutex<[Int]>([])
  /// Bytes mapped ahead in huge pages (the probe's unit included).
  private let hugeBytes = Atomic<Int>(0)
  /// Whether the kernel refused to map a part (``populate(_:)`` returned `false`).
  private let refused = Atomic<Bool>(false)

  private static let unit = 2 << 20
  private static let chunk = 4 << 20
  /// The chunks the monitor looks back over.
  static let monitorWindow = 5

  /// Maps `byteCount` bytes of zeroed, page-aligned, private memory, or returns `nil` when the kernel refuses.
  ///
  /// With overcommit, the kernel maps far more than it can supply and refuses only when the pages are populated;
  /// call ``AvailableMemory/current()`` first to refuse a size the machine does not have.
  package init?(byteCount: Int, policy: Policy = .adaptive) {
    let thp = MappedMemory.transparentHugePagesEnabled
    let advisesHugePages = thp && policy != .smallPages
    // SAFETY: the mapping is kept as an address and a count (no pointer stored); this object owns it until
    // unmap(), which the owner calls once after the last use of `memory`.
    guard let memory = MappedMemory.map(byteCount: byteCount, hugePages: advisesHugePages),
      let start = memory.baseAddress
    else { return nil }
    address = Int(bitPattern: start)
    self.byteCount = memory.count
    switch policy {
    case .adaptive: choiceValue = Atomic(thp ? Choice.undecided.rawValue : Choice.smallPages.rawValue)
    case .hugePages: choiceValue = Atomic(thp ? Choice.hugePages.rawValue : Choice.smallPages.rawValue)
    case .smallPages:
      choiceValue = Atomic(Choice.smallPages.rawValue)
      if thp { Self.adviseNoHugePages(Int(bitPattern: start), memory.count) }
    }
    self.policy = policy
  }

  /// The policy the memory was mapped with.
  package let policy: Policy

  /// The memory, for `Argon2.deriveKey(password:salt:parameters:memory:...)`.
  // SAFETY: rebuilds the exact mapping made in init (address, byteCount), valid until unmap().
  package var memory: UnsafeMutableRawBufferPointer {
    UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(bitPattern: address), count: byteCount)
  }

  /// The page size chosen so far.
  package var choice: Choice { Choice(rawValue: choiceValue.load(ordering: .acquiring)) ?? .undecided }

  /// What the probe measured, in nanoseconds per 2 MiB: 4 KiB pages, then a huge page (zeros before the probe).
  package var probeNanoseconds: (smallPages: Int, hugePage: Int) {
    (smallPageUnitNanoseconds.load(ordering: .acquiring), hugePageUnitNanoseconds.load(ordering: .acquiring))
  }

  /// The bytes that ``populate(_:)`` mapped in huge pages, the probe's 2 MiB included.
  package var bytesMappedInHugePages: Int { hugeBytes.load(ordering: .relaxed) }

  /// Unmaps the memory. Call it once, after the last use of ``memory``.
  package func unmap() { MappedMemory.unmap(memory) }

  /// Whether the kernel refused to map some part (``populate(_:)`` returned `false`).
  package var kernelRefusedMemory: Bool { refused.load(ordering: .acquiring) }

  /// Maps every page of `part` (a range inside ``memory``) now, without changing its contents, in the page size
  /// chosen so far: the `Argon2.MemoryPrefault` hook. Returns `false` when the kernel refused the memory (see
  /// ``MappedMemory/populate(_:)``): the caller must then not write to `part`.
  @discardableResult
  // SAFETY: `part` is a range of a live mapping (Argon2 passes parts of the memory it was given). Only madvise
  // is applied to it (populate/no-huge-page advice), which never changes contents; a part of another mapping (a
  // provider shared by two derivations) gets the same harmless advice on its own, still mapped, range.
  package func populate(_ part: UnsafeMutableRawBufferPointer) -> Bool {
    guard let base = part.baseAddress, part.count > 0 else { return true }
    var start = Int(bitPattern: base)
    let end = start + part.count
    while start < end {
      switch choice {
      case .undecided:
        let (won, _) = choiceValue.compareExchange(
          expected: Choice.undecided.rawValue, desired: Choice.probing.rawValue, ordering: .acquiringAndReleasing)
        if won {
          guard let next = probe(from: start, to: end) else { return refuse() }
          start = next
        }
      case .probing:
        // Another lane is probing: 4 KiB pages for this part, the likelier winner after the machine idled.
        Self.adviseNoHugePages(start, end - start)
        return Self.populate(start, end) || refuse()
      case .smallPages:
        return Self.populate(start, end) || refuse()
      case .hugePages:
        let next = min(end, Self.alignUp(start + 1, Self.chunk))
        var mapped = true
        let elapsed = Self.timed { mapped = Self.populate(start, next) }
        guard mapped else { return refuse() }
        hugeBytes.wrappingAdd(next - start, ordering: .relaxed)
        if policy == .adaptive && next - start >= Self.unit { monitor(elapsed, bytes: next - start) }
        start = next
      }
    }
    return true
  }

  /// Notes a refusal; returns `false` for ``populate(_:)`` to pass on.
  private func refuse() -> Bool {
    refused.store(true, ordering: .releasing)
    return false
  }

  /// Probes from `start`: maps one 2 MiB unit in 4 KiB pages and the next in a huge page, chooses, and maps the
  /// rest of `start..<` that the probe covered. Returns where mapping goes on, or `nil` when the kernel refused
  /// the memory (the choice is then 4 KiB pages, so that other lanes do not wait on a probe).
  private func probe(from start: Int, to end: Int) -> Int? {
    // Skip the unit holding `start`: Argon2 wrote the first blocks of each lane before the first pass, which may
    // have mapped it already.
    let first = Self.alignUp(start + 1, Self.unit)
    guard first + 2 * Self.unit <= end else {
      decide(.smallPages)
      return Self.populate(start, end) ? end : nil
    }
    Self.adviseNoHugePages(first, Self.unit)
    var mapped = true
    let small = Self.timed { mapped = Self.populate(first, first + Self.unit) }
    guard mapped else {
      decide(.smallPages)
      return nil
    }
    let huge = Self.timed { mapped = Self.populate(first + Self.unit, first + 2 * Self.unit) }
    smallPageUnitNanoseconds.store(max(1, small), ordering: .releasing)
    hugePageUnitNanoseconds.store(max(1, huge), ordering: .releasing)
    hugeBytes.wrappingAdd(Self.unit, ordering: .relaxed)
    decide(Self.probeChoice(smallPagesNanoseconds: small, hugePageNanoseconds: huge))
    guard mapped, Self.populate(start, first) else { return nil }
    return first + 2 * Self.unit
  }

  /// Records the cost of a huge-page chunk and switches to 4 KiB pages when the recent chunks lose
  /// (``hugePagesLose(recentUnitNanoseconds:smallPagesUnitNanoseconds:)``).
  private func monitor(_ elapsed: Int, bytes: Int) {
    let reference = smallPageUnitNanoseconds.load(ordering: .acquiring)
    let perUnit = Int(Double(elapsed) * Double(Self.unit) / Double(bytes))
    let loses = recentChunks.withLock { recent in
      if recent.count == Self.monitorWindow { recent.removeFirst() }
      recent.append(perUnit)
      return Self.hugePagesLose(recentUnitNanoseconds: recent, smallPagesUnitNanoseconds: reference)
    }
    if loses { switchToSmallPages() }
  }

  /// The probe's rule: huge pages when their 2 MiB mapped at least twice as fast as 2 MiB of 4 KiB pages.
  static func probeChoice(smallPagesNanoseconds: Int, hugePageNanoseconds: Int) -> Choice {
    2 * hugePageNanoseconds <= smallPagesNanoseconds ? .hugePages : .smallPages
  }

  /// The monitor's rule, over the last ``monitorWindow`` huge-page chunks (each in nanoseconds per 2 MiB): without
  /// the slowest one, they took on average more than 1.25 times what 4 KiB pages took in the probe. Dropping the
  /// slowest keeps a single stall from switching (stalls of 10-40 ms on one chunk, with fast chunks after it, were
  /// seen in runs that huge pages won); the average catches a mix of fast and slow chunks, as when only part of the
  /// recently freed huge pages is still at hand. The margin of 1.25 is what huge pages save besides mapping: fewer
  /// TLB misses in the passes and a cheaper `munmap`.
  static func hugePagesLose(recentUnitNanoseconds recent: [Int], smallPagesUnitNanoseconds reference: Int) -> Bool {
    guard reference > 0, recent.count >= monitorWindow, let slowest = recent.max() else { return false }
    let total = recent.reduce(0, +) - slowest
    return Double(total) > 1.25 * Double(reference) * Double(recent.count - 1)
  }

  private func decide(_ choice: Choice) {
    choiceValue.store(choice.rawValue, ordering: .releasing)
    if choice == .smallPages { Self.adviseNoHugePages(address, byteCount) }
  }

  private func switchToSmallPages() {
    let (won, _) = choiceValue.compareExchange(
      expected: Choice.hugePages.rawValue, desired: Choice.smallPages.rawValue, ordering: .acquiringAndReleasing)
    // Pages already mapped stay huge; the advice applies to what is mapped from now on.
    if won { Self.adviseNoHugePages(address, byteCount) }
  }

  // SAFETY: every range passed to `populate` and `adviseNoHugePages` lies inside the mapping: `populate(_:)` takes parts of
  // ``memory``, the probe stays below the part's end, and the whole-mapping advice uses the mapping's own bounds.
  // Neither call reads or writes the memory's contents.
  private static func populate(_ start: Int, _ end: Int) -> Bool {
    guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return true }
    return MappedMemory.populate(UnsafeMutableRawBufferPointer(start: pointer, count: end - start))
  }

  /// Opts `count` bytes from `start` out of huge pages; what is mapped already keeps its pages.
  private static func adviseNoHugePages(_ start: Int, _ count: Int) {
    // madvise wants a page-aligned start; every address passed here is one.
    guard let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
    PageAdvice.noHugePages(pointer, count)
  }

  private static func alignUp(_ value: Int, _ alignment: Int) -> Int {
    (value + alignment - 1) / alignment * alignment
  }

  /// Runs `body` and returns how long it took, in nanoseconds (the stdlib `ContinuousClock`, as the library's
  /// calibrations use).
  private static func timed(_ body: () -> Void) -> Int {
    let elapsed = ContinuousClock().measure(body).components
    return Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000)
  }
}

extension StandardPrimitives.BlockMemoryProvider {
  /// Argon2 block memory mapped straight from the kernel for each derivation, its pages mapped ahead of the
  /// first pass in the page size that ``AdaptivePageMapping`` measures to be faster, and unmapped afterwards.
  ///
  /// The provider keeps the mapping of the derivation in progress; give each concurrent derivation a provider of
  /// its own (a derivation that shares one still gives the right key, only the page choice suffers).
  ///
  /// It refuses, before mapping anything, a size above what ``AvailableMemory/current()`` reports, and reports a
  /// failed `mmap` or a refused `MADV_POPULATE_WRITE`: the derivation then throws
  /// ``KDBXError/insufficientMemory(requiredBytes:availableBytes:)`` instead of the process being stopped.
  ///
  /// On Apple systems before macOS 15 / iOS 18 (no `Synchronization`), and where transparent huge pages do not
  /// exist, the memory is mapped in 4 KiB pages without probing (`policy` is then ignored).
  package static func mapped(policy: PageMappingPolicy = .adaptive) -> Self {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      return adaptivelyMapped(policy: policy)
    }
    return Self(
      allocate: { byteCount in
        if let available = AvailableMemory.current().bytes, UInt64(clamping: byteCount) > available { return nil }
        return MappedMemory.map(byteCount: byteCount, hugePages: false)
      },
      release: { memory in MappedMemory.unmap(memory) },
      prefault: { part in MappedMemory.populate(part) })
  }

  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  private static func adaptivelyMapped(policy: PageMappingPolicy) -> Self {
    let current = CurrentMapping()
    return Self(
      allocate: { byteCount in
        if let available = AvailableMemory.current().bytes, UInt64(clamping: byteCount) > available { return nil }
        guard let mapping = AdaptivePageMapping(byteCount: byteCount, policy: policy) else { return nil }
        current.mapping.withLock { $0 = mapping }
        return mapping.memory
      },
      release: { memory in
        let mapping = current.mapping.withLock { value -> AdaptivePageMapping? in
          defer { value = nil }
          return value
        }
        // SAFETY: each memory is unmapped exactly once: by its own mapping object when it is the current one (same
        // base address), else directly; `release` receives what `allocate` returned, after the derivation's last use.
        if let mapping, mapping.memory.baseAddress == memory.baseAddress {
          mapping.unmap()
        } else {
          MappedMemory.unmap(memory)
        }
      },
      prefault: { part in
        guard let mapping = current.mapping.withLock({ $0 }) else { return MappedMemory.populate(part) }
        return mapping.populate(part)
      })
  }
}

/// The mapping of the derivation in progress, shared by a provider's closures.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class CurrentMapping: Sendable {
  let mapping = Mutex<AdaptivePageMapping?>(nil)
}

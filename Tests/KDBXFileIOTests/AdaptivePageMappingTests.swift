import KDBX
import KDBXCrypto
import Testing

@testable import KDBXFileIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which 4 KiB pages of `memory` are resident (`mincore`).
private func residentPages(_ memory: UnsafeMutableRawBufferPointer) -> [Bool] {
  let pages = (memory.count + 4095) / 4096
  var vector = [UInt8](repeating: 0, count: pages)
  let status = vector.withUnsafeMutableBufferPointer { mincore(memory.baseAddress, memory.count, $0.baseAddress) }
  precondition(status == 0, "mincore failed")
  return vector.map { $0 & 1 == 1 }
}

@Suite("Adaptive page mapping")
struct AdaptivePageMappingTests {
  static let mebibyte = 1 << 20

  /// Whether every byte is zero, read eight at a time (a byte loop over tens of MiB is slow in a debug build).
  static func isZero(_ memory: UnsafeMutableRawBufferPointer) -> Bool {
    var offset = 0
    var bits: UInt64 = 0
    while offset + 8 <= memory.count {
      bits |= memory.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      offset += 8
    }
    while offset < memory.count {
      bits |= UInt64(memory[offset])
      offset += 1
    }
    return bits == 0
  }

  @Test("the probe keeps huge pages only when they map at least twice as fast")
  func probeRule() {
    #expect(
      AdaptivePageMapping.probeChoice(smallPagesNanoseconds: 1_200_000, hugePageNanoseconds: 250_000) == .hugePages)
    #expect(
      AdaptivePageMapping.probeChoice(smallPagesNanoseconds: 1_200_000, hugePageNanoseconds: 600_000) == .hugePages)
    #expect(
      AdaptivePageMapping.probeChoice(smallPagesNanoseconds: 1_200_000, hugePageNanoseconds: 600_001) == .smallPages)
    #expect(
      AdaptivePageMapping.probeChoice(smallPagesNanoseconds: 1_200_000, hugePageNanoseconds: 4_000_000) == .smallPages)
  }

  @Test("huge pages lose when the recent chunks, without the slowest, took 1.25 times the 4 KiB figure")
  func monitorRule() {
    let reference = 1_000_000  // 2 MiB in 4 KiB pages: 1 ms
    func loses(_ recent: [Int]) -> Bool {
      AdaptivePageMapping.hugePagesLose(recentUnitNanoseconds: recent, smallPagesUnitNanoseconds: reference)
    }
    #expect(!loses([150_000, 200_000, 180_000, 170_000, 160_000]))
    // One stall alone does not switch.
    #expect(!loses([150_000, 20_000_000, 180_000, 170_000, 160_000]))
    // Every chunk slow, or a mix of fast and slow chunks that costs more on average.
    #expect(loses([3_500_000, 3_600_000, 3_400_000, 3_700_000, 3_500_000]))
    #expect(loses([200_000, 3_500_000, 300_000, 3_700_000, 3_600_000]))
    #expect(!loses([200_000, 3_500_000, 300_000, 250_000, 3_600_000]))
    // The boundary: four chunks of 1.25 ms besides the slowest.
    #expect(!loses([1_250_000, 1_250_000, 1_250_000, 1_250_000, 9_000_000]))
    #expect(loses([1_250_000, 1_250_000, 1_250_000, 1_250_001, 9_000_000]))
    // Too few chunks yet, or no probe figure.
    #expect(!loses([9_000_000, 9_000_000, 9_000_000, 9_000_000]))
    #expect(
      !AdaptivePageMapping.hugePagesLose(
        recentUnitNanoseconds: [9_000_000, 9_000_000, 9_000_000, 9_000_000, 9_000_000], smallPagesUnitNanoseconds: 0))
  }

  @Test(
    "populate maps every page without changing the contents, and the choice is made",
    arguments: [AdaptivePageMapping.Policy.adaptive, .hugePages, .smallPages])
  func populateMapsEverything(policy: AdaptivePageMapping.Policy) throws {
    let byteCount = 24 * Self.mebibyte + 12_288
    let mapping = try #require(AdaptivePageMapping(byteCount: byteCount, policy: policy))
    defer { mapping.unmap() }
    let memory = mapping.memory
    #expect(memory.count == byteCount)
    #expect(mapping.choice == (policy == .adaptive ? .undecided : policy == .hugePages ? .hugePages : .smallPages))
    // A marker in the first page, as Argon2 writes a lane's first blocks before the first pass.
    memory[0] = 0xa5
    memory[byteCount - 1] = 0x5a
    mapping.populate(memory)
    #expect(residentPages(memory).allSatisfy { $0 })
    #expect(memory[0] == 0xa5 && memory[byteCount - 1] == 0x5a)
    #expect(Self.isZero(UnsafeMutableRawBufferPointer(rebasing: memory[1..<(byteCount - 1)])))
    switch policy {
    case .adaptive:
      if MappedMemory.transparentHugePagesEnabled {
        #expect(mapping.choice == .hugePages || mapping.choice == .smallPages)
        let probe = mapping.probeNanoseconds
        #expect(probe.smallPages > 0 && probe.hugePage > 0)
        #expect(mapping.bytesMappedInHugePages >= 2 * Self.mebibyte)
      } else {
        #expect(mapping.choice == .smallPages)
      }
    case .hugePages:
      #expect(mapping.choice == (MappedMemory.transparentHugePagesEnabled ? .hugePages : .smallPages))
    case .smallPages:
      #expect(mapping.choice == .smallPages)
      #expect(mapping.bytesMappedInHugePages == 0)
    }
  }

  @Test("memory too small to probe is mapped in 4 KiB pages")
  func smallMemoryUsesSmallPages() throws {
    let mapping = try #require(AdaptivePageMapping(byteCount: 3 * Self.mebibyte))
    defer { mapping.unmap() }
    mapping.populate(mapping.memory)
    #expect(mapping.choice == .smallPages)
    #expect(residentPages(mapping.memory).allSatisfy { $0 })
  }

  @Test("lanes populating their parts at once map every page")
  func concurrentPopulate() async throws {
    let parts = 4
    let partBytes = 8 * Self.mebibyte
    let mapping = try #require(AdaptivePageMapping(byteCount: parts * partBytes))
    defer { mapping.unmap() }
    let start = try #require(mapping.memory.baseAddress)
    let address = Int(bitPattern: start)
    await withTaskGroup(of: Void.self) { group in
      for part in 0..<parts {
        group.addTask {
          let pointer = UnsafeMutableRawPointer(bitPattern: address + part * partBytes)
          mapping.populate(UnsafeMutableRawBufferPointer(start: pointer, count: partBytes))
        }
      }
    }
    #expect(residentPages(mapping.memory).allSatisfy { $0 })
    #expect(mapping.choice != .undecided && mapping.choice != .probing)
    #expect(Self.isZero(mapping.memory))
  }

  @Test("Argon2 in adaptively mapped memory gives the tag of library-allocated memory", arguments: [1, 2])
  func argon2Tag(lanes: Int) throws {
    let parameters = try Argon2.Parameters(variant: .id, iterations: 2, memoryKiB: 16 * 1024, lanes: lanes)
    let password = Array("password".utf8)
    let salt = Array("somesalt".utf8)
    let expected = try Argon2.deriveKey(password: password, salt: salt, parameters: parameters)
    let byteCount = Argon2.estimate(parameters: parameters).memoryByteCount
    let mapping = try #require(AdaptivePageMapping(byteCount: byteCount))
    defer { mapping.unmap() }
    let tag = try Argon2.deriveKey(
      password: password, salt: salt, parameters: parameters, memory: mapping.memory, maxConcurrency: 2,
      prefault: mapping.populate)
    #expect(tag == expected)
    #expect(mapping.choice == .hugePages || mapping.choice == .smallPages)
    #expect(Self.isZero(mapping.memory))
  }

  @Test("the mapped block-memory provider opens a KDBX 4 file as the default allocation does")
  func providerOpensFile() throws {
    var random = SystemRandomNumberGenerator()
    let database = Database.new(
      name: "adaptive", clock: FixedClock(Timestamp(unixSeconds: 1_772_366_400)), random: &random)
    let kdf = Argon2KDFParameters(
      variant: .id, iterations: 1, memoryBytes: 16 << 20, parallelism: 2, salt: [UInt8](repeating: 7, count: 32))
    let key = CompositeKey(password: "pages")
    let bytes = try KDBXFile.saveBlocking(database, key: key, settings: SaveSettings(version: .v4_0, kdf: .argon2(kdf)))
    var primitives = StandardPrimitives()
    primitives.argon2MaxConcurrency = 2
    primitives.argon2BlockMemory = .mapped()
    let opened = try KDBXFile.open(bytes: bytes, key: key, primitives: primitives, random: &random)
    #expect(opened.database.meta.databaseName == "adaptive")
    #expect(opened.transformedKey.hasSameBytes(as: try KDBXFile.openBlocking(bytes: bytes, key: key).transformedKey))
  }
}

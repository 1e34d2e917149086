import KDBX
import KDBXBase
import KDBXCrypto
import Testing
import VectorSupport

/// Issue #19 items 6 and 7: KDF work and memory are refused before the KDF runs, and memory the system refuses is
/// an error, not a stopped process.
@Suite("KDF cost limits", .timeLimit(.minutes(1)))
struct KDFCostLimitTests {
  static let key = CompositeKey(password: "cost")

  /// A file with `kdf`, written with the fake primitives (their KDF is one SHA-256, whatever the parameters).
  static func file(_ kdf: KDFParameters, version: KDBXVersion = .v4_0) throws -> [UInt8] {
    var random = SplitMix64(seed: 19)
    return try KDBXFile.save(
      LibraryFixture.make(), key: key, settings: SaveSettings(version: version, kdf: kdf), primitives: FakePrimitives(),
      random: &random)
  }

  static func argon2(memory: UInt64, iterations: UInt64) -> KDFParameters {
    .argon2(
      Argon2KDFParameters(
        variant: .id, iterations: iterations, memoryBytes: memory, parallelism: 2,
        salt: [UInt8](repeating: 1, count: 32)
      ))
  }

  static func aes(_ rounds: UInt64, _ variant: KDFAlgorithm = .aesKDBX4) -> KDFParameters {
    .aesKDF(AESKDFParameters(rounds: rounds, seed: [UInt8](repeating: 2, count: 32), uuidVariant: variant))
  }

  /// Opens with the fake primitives; returns the error and how many times the KDF ran.
  static func open(_ bytes: [UInt8], _ options: LoadOptions = .default) -> (error: KDBXError?, kdfRuns: Int) {
    let primitives = FakePrimitives()
    var random = SplitMix64(seed: 1)
    do throws(KDBXError) {
      _ = try KDBXFile.open(bytes: bytes, key: key, primitives: primitives, random: &random, options: options)
      return (nil, primitives.kdfCalls.value)
    } catch {
      return (error, primitives.kdfCalls.value)
    }
  }

  @Test func argon2WithAMillionIterationsIsRefusedBeforeTheKDF() throws {
    // 1 MiB x 1,000,000: each parameter within its own limit, 1 TiB of work in all.
    let (error, runs) = Self.open(try Self.file(Self.argon2(memory: 1 << 20, iterations: 1_000_000)))
    #expect(
      error
        == .limitExceeded(
          what: "Argon2 work (memory bytes x iterations)", value: 1_000_000 << 20, limit: 128 << 30))
    #expect(runs == 0)
  }

  @Test func aesKDFWithABillionRoundsLessOneIsRefusedBeforeTheKDF() throws {
    for (version, variant) in [(KDBXVersion.v4_0, KDFAlgorithm.aesKDBX4), (.v3_1, .aesKDBX3)] {
      let (error, runs) = Self.open(try Self.file(Self.aes(999_999_999, variant), version: version))
      #expect(error == .limitExceeded(what: "AES-KDF rounds", value: 999_999_999, limit: 500_000_000))
      #expect(runs == 0)
    }
  }

  @Test func raisedWorkCapsOpenTheSameFiles() throws {
    var options = LoadOptions.default
    options.maxArgon2WorkBytes = .max
    options.maxAESKDFRounds = 999_999_999
    let argon = Self.open(try Self.file(Self.argon2(memory: 1 << 20, iterations: 1_000_000)), options)
    #expect(argon.error == nil)
    #expect(argon.kdfRuns == 1)
    let aes = Self.open(try Self.file(Self.aes(999_999_999)), options)
    #expect(aes.error == nil)
    // A lowered cap refuses an ordinary file: 64 MiB x 3 over a 128 MiB cap.
    let ordinary = try Self.file(Self.argon2(memory: 64 << 20, iterations: 3))
    #expect(Self.open(ordinary).error == nil)
    #expect(
      Self.open(ordinary, LoadOptions(maxArgon2WorkBytes: 128 << 20)).error
        == .limitExceeded(what: "Argon2 work (memory bytes x iterations)", value: 192 << 20, limit: 128 << 20))
  }

  /// The defaults open every real vault: KeePassXC's defaults and its longest preset (5 s at 64 MiB, 2 lanes, on
  /// the fastest desktop: about 30 GiB of work), KeePass 2's, 1 GiB x 100 and 4 GiB x 16, and AES-KDF at 5 s of a
  /// 60 M rounds/s core.
  @Test func defaultCapsCoverRealVaults() throws {
    for (memory, iterations) in [(64 << 20, 10), (1 << 20, 2), (64 << 20, 500), (1 << 30, 100), (4 << 30, 16)] {
      let kdf = Self.argon2(memory: UInt64(memory), iterations: UInt64(iterations))
      #expect(Self.open(try Self.file(kdf)).error == nil, "\(memory) bytes x \(iterations)")
    }
    #expect(Self.open(try Self.file(Self.aes(300_000_000))).error == nil)
  }

  @Test func argon2MemoryOverWhatTheCallerHasIsRefusedBeforeTheKDF() throws {
    let bytes = try Self.file(Self.argon2(memory: 64 << 20, iterations: 2))
    let (error, runs) = Self.open(bytes, LoadOptions(availableMemoryBytes: 32 << 20))
    #expect(error == .insufficientMemory(requiredBytes: 64 << 20, availableBytes: 32 << 20))
    #expect(error?.description == "cannot reserve 64 MiB for the key derivation; 32 MiB available")
    #expect(runs == 0)
    #expect(Self.open(bytes, LoadOptions(availableMemoryBytes: 64 << 20)).error == nil)
    #expect(LoadOptions(availableMemoryBytes: 1 << 30).kdfMemoryCapBytes == 1 << 30)
    #expect(LoadOptions().kdfMemoryCapBytes == 4 << 30)
  }

  /// A block-memory provider that cannot supply the memory makes the derivation fail with an error; before, the
  /// library fell back to its own allocator, which stops the process when the system has no memory to give.
  @Test func aProviderThatCannotSupplyMemoryIsAnError() throws {
    var primitives = StandardPrimitives()
    primitives.argon2BlockMemory = .init(allocate: { _ in nil }, release: { _ in })
    let kdf = Self.argon2(memory: 1 << 20, iterations: 1)
    #expect(throws: KDBXError.insufficientMemory(requiredBytes: 1 << 20, availableBytes: nil)) {
      _ = try primitives.transformKey([UInt8](repeating: 7, count: 32), parameters: kdf)
    }
  }

  @Test func aPageMappingHookThatFailsIsAnError() throws {
    let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 4096)
    defer { memory.deallocate() }
    var primitives = StandardPrimitives()
    primitives.argon2MaxConcurrency = 3
    primitives.argon2BlockMemory = .init(
      allocate: { _ in memory }, release: { _ in }, prefault: { _ in false })
    let kdf = Self.argon2(memory: 1 << 20, iterations: 1)
    #expect(throws: KDBXError.insufficientMemory(requiredBytes: 1 << 20, availableBytes: nil)) {
      _ = try primitives.transformKey([UInt8](repeating: 7, count: 32), parameters: kdf)
    }
    #expect(
      KDBXError.insufficientMemory(requiredBytes: 4 << 30, availableBytes: nil).description
        == "cannot reserve 4 GiB for the key derivation (the system refused the memory)")
  }

  @Test func byteCountsInWords() {
    let cases: [(UInt64, String)] = [
      (0, "0 bytes"), (1, "1 byte"), (1_023, "1023 bytes"), (1_024, "1 KiB"), (1_536, "1.5 KiB"), (4 << 30, "4 GiB"),
      ((3 << 30) / 2, "1.5 GiB"), ((1 << 30) - 1, "1024 MiB"), (1_000_000 << 20, "976.6 GiB"), (.max, "16777216 TiB"),
    ]
    for (bytes, text) in cases { #expect(ByteCountText.describe(bytes) == text, "\(bytes)") }
  }
}

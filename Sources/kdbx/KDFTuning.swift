import KDBX
import KDBXFileIO

/// How the CLI runs key derivations: Argon2 lanes on every online core, in block memory mapped with huge pages.
enum KDFTuning {
  /// Standard primitives with the CLI's KDF settings and the given progress handler.
  static func primitives(progress: ((Double) -> Bool)?, options: LoadOptions = .default) -> StandardPrimitives {
    var primitives = StandardPrimitives(progress: progress)
    primitives.argon2MemoryLimitBytes = Int(clamping: options.maxKDFMemoryBytes)
    primitives.argon2MaxConcurrency = MappedMemory.onlineProcessorCount
    primitives.maxConcurrency = MappedMemory.onlineProcessorCount
    primitives.argon2BlockMemory = StandardPrimitives.BlockMemoryProvider(
      allocate: { byteCount in MappedMemory.map(byteCount: byteCount, hugePages: true) },
      release: { memory in MappedMemory.unmap(memory) })
    return primitives
  }

  /// Opens `bytes` with the CLI's KDF settings.
  static func open(bytes: [UInt8], key: CompositeKey, progress: ((Double) -> Bool)? = nil) throws(KDBXError)
    -> OpenedDatabase
  {
    var random = SystemRandomNumberGenerator()
    return try KDBXFile.open(bytes: bytes, key: key, primitives: primitives(progress: progress), random: &random)
  }
}

extension KDFTuning {
  /// Writes `database` with the CLI's KDF settings and fresh seeds from the system's secure generator.
  static func save(
    _ database: Database, key: CompositeKey, settings: SaveSettings, progress: ((Double) -> Bool)? = nil
  ) throws(KDBXError) -> [UInt8] {
    var random = SystemRandomNumberGenerator()
    return try KDBXFile.save(
      database, key: key, settings: settings, primitives: primitives(progress: progress), random: &random)
  }
}

import KDBX
import KDBXCrypto
import KDBXFileIO

/// How the CLI runs key derivations: Argon2 lanes on every online core, in block memory mapped from the
/// kernel with the page size that maps faster at the time (`AdaptivePageMapping`).
enum KDFTuning {
  /// Standard primitives with the CLI's KDF settings and the given progress handler.
  static func primitives(progress: ((Double) -> Bool)?, options: LoadOptions = .default) -> StandardPrimitives {
    var primitives = StandardPrimitives(progress: progress)
    primitives.argon2MemoryLimitBytes = Int(clamping: options.kdfMemoryCapBytes)
    primitives.argon2MaxConcurrency = MappedMemory.onlineProcessorCount
    primitives.maxConcurrency = MappedMemory.onlineProcessorCount
    primitives.argon2BlockMemory = .mapped()
    return primitives
  }

  /// Opens `bytes` with the CLI's KDF settings and `options` (see `KDFCosts.loadOptions`).
  static func open(
    bytes: [UInt8], key: CompositeKey, options: LoadOptions = .default, progress: ((Double) -> Bool)? = nil
  ) throws(KDBXError) -> OpenedDatabase {
    var system = SystemRandomNumberGenerator()
    var random = ChaCha20RandomNumberGenerator(seededFrom: &system)
    return try KDBXFile.open(
      bytes: bytes, key: key, primitives: primitives(progress: progress, options: options), random: &random,
      options: options)
  }
}

extension KDFTuning {
  /// Writes `database` with the CLI's KDF settings and fresh seeds from the system's secure generator, and returns
  /// the file with the transformed key it was written with and its XML document, checked to be well-formed while
  /// the payload was compressed, for ``problem(readingBack:of:)``.
  static func write(
    _ database: Database, key: CompositeKey, settings: SaveSettings, progress: ((Double) -> Bool)? = nil
  ) throws(KDBXError) -> SavedFile {
    var random = SystemRandomNumberGenerator()
    return try KDBXFile.write(
      database, key: key, settings: settings, primitives: primitives(progress: progress), random: &random,
      checksDocument: true)
  }

  /// Why `bytes`, read back from storage after writing `saved`, are not that file, intact, holding the document
  /// the save checked (every container layer opened with the transformed key, the XML compared byte for byte: see
  /// `KDBXFile.verifyReadBack`), or `nil` when they are.
  static func problem(readingBack bytes: [UInt8], of saved: SavedFile) -> String? {
    do throws(KDBXError) {
      try KDBXFile.verifyReadBack(bytes, of: saved, primitives: primitives(progress: nil))
      return nil
    } catch {
      return error.description
    }
  }
}

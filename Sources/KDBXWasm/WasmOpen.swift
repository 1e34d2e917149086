import KDBX
import KDBXBase
import KDBXCrypto
import KDBXImport

/// The library's primitives as the module runs them: one thread, the host's progress callback, and Argon2's block
/// memory from ``WasmHeap`` through a provider that can say no, so that a KDF the memory cap cannot hold fails
/// with an error instead of a trap.
enum WasmPrimitives {
  static var standard: StandardPrimitives {
    var primitives = StandardPrimitives(progress: { Host.progress($0) })
    primitives.maxConcurrency = 1
    primitives.argon2MaxConcurrency = 1
    primitives.argon2MemoryLimitBytes = Int(clamping: WasmHeap.availableBytes)
    primitives.argon2BlockMemory = blockMemory
    return primitives
  }

  static var blockMemory: StandardPrimitives.BlockMemoryProvider {
    StandardPrimitives.BlockMemoryProvider(
      // SAFETY: the buffer is exactly the `count` bytes posix_memalign gave (nil on refusal), owned by the Argon2
      // derivation until it hands the same buffer back to `release`, which frees it once.
      allocate: { count in
        var pointer: UnsafeMutableRawPointer? = nil
        guard wasmPosixMemalign(&pointer, 64, count) == 0, let pointer else { return nil }
        return UnsafeMutableRawBufferPointer(start: pointer, count: count)
      },
      release: { memory in wasmFree(memory.baseAddress) })
  }

  /// Argon2 in heap memory that may be refused (for the timing export).
  static func argon2(password: [UInt8], salt: [UInt8], parameters: Argon2.Parameters) throws(CryptoError) -> [UInt8] {
    let count = Argon2.estimate(parameters: parameters).memoryByteCount
    guard let memory = blockMemory.allocate(count) else { throw .memoryUnavailable(requiredBytes: count) }
    defer { blockMemory.release(memory) }
    return try Argon2.deriveKey(password: password, salt: salt, parameters: parameters, memory: memory)
  }
}

/// Opening and saving for the exports.
enum WasmOpen {
  /// The load limits: the library's defaults, with the memory the heap can still supply as the available memory,
  /// so that a file whose KDF or payload cannot fit is refused before anything is allocated.
  static var options: LoadOptions {
    var options = LoadOptions.default
    let available = UInt64(WasmHeap.availableBytes)
    options.availableMemoryBytes = available
    // The payload is held compressed, decompressed and as XML text while the tree is built: a quarter of what is
    // left leaves room for all of them.
    options.maxPayloadByteCount = min(options.maxPayloadByteCount, Int(clamping: available / 4))
    return options
  }

  static func open(_ bytes: [UInt8], password: [UInt8]?, keyFile: [UInt8]?) throws(WasmFailure) -> WasmVaults.Vault {
    do throws(KDBXError) {
      let file = try keyFile.map { contents throws(KDBXError) in try KeyFile(contents: contents) }
      let key = CompositeKey(passwordBytes: password, keyFile: file)
      var system = SystemRandomNumberGenerator()
      var random = ChaCha20RandomNumberGenerator(seededFrom: &system)
      if KDB1File.isKDB1(bytes) {
        let opened = try KDB1File.open(
          bytes: bytes, key: key, primitives: WasmPrimitives.standard, clock: HostClock(), random: &random,
          options: options)
        return WasmVaults.Vault(opened: OpenedDatabase(importing: opened), key: key)
      }
      let opened = try KDBXFile.open(
        bytes: bytes, key: key, primitives: WasmPrimitives.standard, random: &random, options: options)
      return WasmVaults.Vault(opened: opened, key: key)
    } catch {
      throw WasmFailure(error)
    }
  }

  /// The vault as `kdbx export --format json` writes it (``VaultJSONExport``).
  static func json(_ opened: OpenedDatabase, revealing: Bool) -> [UInt8] {
    Array(VaultJSONExport.document(opened, revealingProtectedValues: revealing).rendered().utf8)
  }

  /// A new file for the vault, checked as the CLI checks its saves (`KDBXFile.verifyReadBack`): every container
  /// layer opened with the key it was written with (no second KDF), its content compared with the document the
  /// save wrote and checked, as it decompresses (no second copy of the document in the module's memory).
  static func save(_ vault: WasmVaults.Vault) throws(WasmFailure) -> [UInt8] {
    if vault.opened.isKeePass1 {
      throw WasmFailure(
        .readOnly, "a KeePass 1.x file is opened read-only; export it or import it into a new KDBX vault first")
    }
    let saved: SavedFile
    do throws(KDBXError) {
      var random = SystemRandomNumberGenerator()
      saved = try KDBXFile.write(
        vault.opened.database, key: vault.key, settings: SaveSettings(keeping: vault.opened),
        primitives: WasmPrimitives.standard, random: &random, checksDocument: true)
      var verifying = WasmPrimitives.standard
      verifying.progress = nil
      try KDBXFile.verifyReadBack(saved.bytes, of: saved, primitives: verifying)
    } catch .cancelled {
      throw WasmFailure(.cancelled, "the save was cancelled; nothing was written")
    } catch {
      throw WasmFailure(WasmStatus.of(error), "cannot save: \(error.description)")
    }
    return saved.bytes
  }
}

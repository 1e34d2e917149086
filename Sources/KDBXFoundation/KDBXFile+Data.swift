import Foundation
import KDBX

extension KDBXFile {
  /// Opens a KDBX file held in `data`: ``KDBX/KDBXFile/open(bytes:key:options:progress:)``
  /// for Foundation callers. The result is the same as for `open(bytes: Array(data), ...)`.
  public static func open(
    data: Data, key: CompositeKey, options: LoadOptions = .default, progress: ((Double) -> Bool)? = nil
  ) throws(KDBXError) -> OpenedDatabase {
    try open(bytes: [UInt8](data), key: key, options: options, progress: progress)
  }

  /// Opens a KDBX file held in `data` without blocking the caller's actor:
  /// ``KDBX/KDBXFile/open(bytes:key:options:maxConcurrency:progress:)`` for Foundation callers.
  public static func open(
    data: Data, key: CompositeKey, options: LoadOptions = .default, maxConcurrency: Int? = nil,
    progress: (@Sendable (Double) -> Void)? = nil
  ) async throws(KDBXError) -> OpenedDatabase {
    try await open(
      bytes: [UInt8](data), key: key, options: options, maxConcurrency: maxConcurrency, progress: progress)
  }

  /// Writes `database` as a KDBX file and returns it as `Data`: ``KDBX/KDBXFile/save(_:key:settings:progress:)``
  /// (fresh seeds, IVs and salts from the system's secure random number generator).
  ///
  /// Named `saveData` rather than overloading `save` on its return type, so that `let bytes = try
  /// KDBXFile.save(...)` stays unambiguous in a file that imports this module.
  public static func saveData(
    _ database: Database, key: CompositeKey, settings: SaveSettings, progress: ((Double) -> Bool)? = nil
  ) throws(KDBXError) -> Data {
    Data(try save(database, key: key, settings: settings, progress: progress))
  }

  /// ``saveData(_:key:settings:progress:)`` without blocking the caller's actor while the key derivation runs.
  public static func saveData(
    _ database: Database, key: CompositeKey, settings: SaveSettings, maxConcurrency: Int? = nil,
    progress: (@Sendable (Double) -> Void)? = nil
  ) async throws(KDBXError) -> Data {
    Data(try await save(database, key: key, settings: settings, maxConcurrency: maxConcurrency, progress: progress))
  }
}

extension KeyFile {
  /// Reads a key file's contents from `data` (KeePass XML v1/v2, 32 raw bytes, 64 hex digits, or any other file,
  /// hashed): ``KDBX/KeyFile/init(contents:)``.
  public init(contents data: Data) throws(KDBXError) {
    try self.init(contents: [UInt8](data))
  }
}

extension Database {
  /// The content of `attachment` as `Data`, or `nil` when its binary is missing from the pool (or was left out by
  /// ``KDBX/LoadOptions/loadsAttachmentContents``).
  public func contents(of attachment: Attachment) -> Data? {
    guard let binary = binaries[attachment.binaryIndex], binary.omitted == nil else { return nil }
    return Data(binary.data)
  }
}

extension Entry {
  /// Attaches `data` as `name` (replacing an attachment of that name), adding it to `pool`:
  /// ``KDBX/Entry/attach(_:data:in:isProtected:)`` for `Data`. Use it inside
  /// ``KDBX/Database/editEntry(_:clock:withBinaries:)``.
  public mutating func attach(_ name: String, data: Data, in pool: inout BinaryPool, isProtected: Bool = false) {
    attach(name, data: [UInt8](data), in: &pool, isProtected: isProtected)
  }
}

import Foundation
import KDBX

extension KDBXFile {
  /// Opens a KDBX file held in `data` without blocking the caller's actor:
  /// ``KDBX/KDBXFile/open(bytes:key:options:maxConcurrency:progress:)`` for Foundation callers. The result is the
  /// same as for `open(bytes: Array(data), ...)`; a tool that needs the blocking form writes
  /// `KDBXFile.openBlocking(bytes: Array(data), ...)`.
  public static func open(
    data: Data, key: CompositeKey, options: LoadOptions = .default, maxConcurrency: Int? = nil,
    progress: (@Sendable (Double) -> Void)? = nil
  ) async throws(KDBXError) -> OpenedDatabase {
    try await open(
      bytes: [UInt8](data), key: key, options: options, maxConcurrency: maxConcurrency, progress: progress)
  }

  /// Writes `database` as a KDBX file and returns it as `Data`:
  /// ``KDBX/KDBXFile/save(_:key:settings:maxConcurrency:progress:)`` for Foundation callers (fresh seeds, IVs and
  /// salts from the system's secure random number generator), without blocking the caller's actor while the key
  /// derivation runs. A tool that needs the blocking form writes `Data(try KDBXFile.saveBlocking(...))`.
  ///
  /// Named `saveData` rather than overloading `save` on its return type, so that `let bytes = try await
  /// KDBXFile.save(...)` stays unambiguous in a file that imports this module.
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
  /// ``KDBX/Database/setAttachment(named:contents:isProtected:inEntry:clock:)`` for `Data`: attaches `contents` as
  /// `name` to entry `uuid` (replacing an attachment of that name), as an edit. Read it back with
  /// `Data(database.contents(of: attachment) ?? [])`.
  @discardableResult
  public mutating func setAttachment(
    named name: String, contents: Data, isProtected: Bool = false, inEntry uuid: KDBXUUID, clock: some WallClock
  ) -> Bool {
    setAttachment(named: name, contents: [UInt8](contents), isProtected: isProtected, inEntry: uuid, clock: clock)
  }
}

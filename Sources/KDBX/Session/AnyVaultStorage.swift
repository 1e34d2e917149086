/// Any ``VaultStorage`` behind one type, so that one `VaultSession<AnyVaultStorage>` (or one view model) can hold a
/// vault from a file path, a file provider URL or memory alike.
///
/// ```swift
/// let storage = AnyVaultStorage(InMemoryVaultStorage(bytes: bytes))   // or AnyVaultStorage(FileVaultStorage(path: p))
/// let session = try await VaultSession.open(storage: storage, key: key)
/// ```
///
/// The wrapped storage is held by reference: copies of an `AnyVaultStorage` share it. Its versions are numbered
/// here (``Version`` is a `UInt64`); the wrapper keeps the wrapped storage's own version for the latest numbers it
/// handed out and passes it to the wrapped ``VaultStorage/write(_:replacing:)``, so a coordinated write is exactly
/// as safe as with the wrapped storage. A number it no longer holds counts as another version
/// (``VaultStorageError/changedSinceRead(location:)``, nothing written).
public struct AnyVaultStorage: VaultStorage {
  /// A number for one version of the wrapped storage's file.
  public typealias Version = UInt64

  private let box: Box

  /// Wraps `storage`.
  public init<Wrapped: VaultStorage>(_ storage: Wrapped) {
    let holder = Holder(storage)
    box = Box(
      read: { () throws(VaultStorageError) -> (bytes: [UInt8], version: UInt64) in try holder.read() },
      write: { (bytes, expected) throws(VaultStorageError) -> UInt64 in try holder.write(bytes, replacing: expected) })
  }

  /// Reads the wrapped storage's file and numbers its version.
  public mutating func read() throws(VaultStorageError) -> (bytes: [UInt8], version: UInt64) {
    try box.read()
  }

  /// Writes through the wrapped storage, replacing the version numbered `expected` (`nil`: no file yet).
  public mutating func write(_ bytes: [UInt8], replacing expected: UInt64?) throws(VaultStorageError) -> UInt64 {
    try box.write(bytes, expected)
  }

  /// The two operations, each bound to one ``Holder``.
  private final class Box {
    let read: () throws(VaultStorageError) -> (bytes: [UInt8], version: UInt64)
    let write: ([UInt8], UInt64?) throws(VaultStorageError) -> UInt64

    init(
      read: @escaping () throws(VaultStorageError) -> (bytes: [UInt8], version: UInt64),
      write: @escaping ([UInt8], UInt64?) throws(VaultStorageError) -> UInt64
    ) {
      self.read = read
      self.write = write
    }
  }

  /// The wrapped storage and the versions it reported, by number (the last few: a session hands back the one it
  /// read or wrote last).
  private final class Holder<Wrapped: VaultStorage> {
    var storage: Wrapped
    var versions: [(number: UInt64, version: Wrapped.Version)] = []
    var nextNumber: UInt64 = 1
    static var kept: Int { 8 }

    init(_ storage: Wrapped) { self.storage = storage }

    func number(_ version: Wrapped.Version) -> UInt64 {
      let number = nextNumber
      nextNumber &+= 1
      versions.append((number, version))
      if versions.count > Self.kept { versions.removeFirst(versions.count - Self.kept) }
      return number
    }

    func read() throws(VaultStorageError) -> (bytes: [UInt8], version: UInt64) {
      let (bytes, version) = try storage.read()
      return (bytes, number(version))
    }

    func write(_ bytes: [UInt8], replacing expected: UInt64?) throws(VaultStorageError) -> UInt64 {
      var wrappedExpected: Wrapped.Version? = nil
      if let expected {
        guard let found = versions.last(where: { $0.number == expected }) else {
          throw .changedSinceRead(location: "the vault file")
        }
        wrappedExpected = found.version
      }
      return number(try storage.write(bytes, replacing: wrappedExpected))
    }
  }
}

import Foundation
import KDBX

extension UUID {
  /// The same 16 bytes as `uuid`, in the same order: `UUID(entry.uuid).uuidString` is the uppercase form of
  /// `entry.uuid.description`.
  ///
  /// KDBX stores a UUID as its 16 bytes in file order (KDBX 4.1 specification, "General notes"); Foundation's
  /// `uuid_t` is the same byte order (RFC 9562 network order), so no bytes are swapped.
  public init(_ uuid: KDBXUUID) {
    let b = uuid.bytes
    self.init(
      uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
  }
}

extension KDBXUUID {
  /// The same 16 bytes as `uuid`, in the same order (see ``Foundation/UUID/init(_:)``).
  public init(_ uuid: UUID) {
    let t = uuid.uuid
    // 16 bytes by construction, so the failable initializer cannot fail; `.zero` only keeps the compiler content.
    self =
      KDBXUUID(bytes: [t.0, t.1, t.2, t.3, t.4, t.5, t.6, t.7, t.8, t.9, t.10, t.11, t.12, t.13, t.14, t.15]) ?? .zero
  }
}

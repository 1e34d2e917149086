import KDBXCrypto

/// A file attached to an entry: its name here, its content in the database (stored once however many entries and
/// history versions refer to it).
///
/// Read it through the database, change it with one call:
///
/// ```swift
/// for attachment in entry.attachments {
///   let size = database.byteCount(of: attachment)  // also when the content was not loaded
///   if database.isLoaded(attachment), let bytes = database.contents(of: attachment) { show(attachment.name, bytes) }
/// }
/// database.setAttachment(named: "codes.txt", contents: Array("1111".utf8), inEntry: entry.uuid, clock: clock)
/// database.renameAttachment(named: "codes.txt", to: "recovery.txt", inEntry: entry.uuid, clock: clock)
/// database.removeAttachment(named: "recovery.txt", inEntry: entry.uuid, clock: clock)
/// ```
public struct Attachment: Sendable, Equatable {
  /// The file name shown to the user. Inside `Database.editEntry(_:clock:_:)` an attachment can be renamed by
  /// setting it, or removed from ``Entry/attachments``.
  public var name: String
  /// The index of the binary in the database's pool; ``missingBinaryIndex`` when the file's reference named no
  /// binary (see ``missingReference``).
  package var binaryIndex: Int
  /// The `Ref` the file gave when it named no binary of the file (a dangling reference, which KeePass drops when
  /// it opens the file): the attachment is kept, listed as missing, so that nothing is lost; `nil` otherwise.
  /// A save writes the reference back, still dangling (renumbered when the number has come to name a binary).
  package var missingReference: String?
  /// Unknown attributes of the `Value` element, kept for writing back.
  package var extraValueAttributes: [KDBXXMLAttribute]
  /// Unknown children and attributes of the `Binary` element, and the read order.
  package var layout: XMLLayout

  package init(name: String, binaryIndex: Int) {
    self.name = name
    self.binaryIndex = binaryIndex
    self.missingReference = nil
    self.extraValueAttributes = []
    self.layout = XMLLayout()
  }
}

extension Attachment {
  /// The ``binaryIndex`` of an attachment whose reference names no binary: past the end of any pool.
  package static let missingBinaryIndex = Int.max

  /// Whether the attachment's content is missing from the database (its reference names no binary).
  package func isMissing(in database: Database) -> Bool { database.binaries[binaryIndex] == nil }
}

/// The database's attachment contents: the KDBX 4 inner-header binaries or the KDBX 3.1 `Meta/Binaries`. Adding
/// content that is already in the pool returns the existing index (deduplication by content).
package struct BinaryPool: Sendable, Equatable {
  /// One stored binary.
  package struct Binary: Sendable, Equatable {
    /// The content.
    package var data: [UInt8]
    /// Whether the binary is flagged to be kept protected in memory.
    package var isProtected: Bool
    /// For a database opened without attachment contents (``LoadOptions/loadsAttachmentContents`` off): the
    /// size and SHA-256 of the content that was not kept (``data`` is then empty); `nil` otherwise.
    package var omitted: OmittedContent? = nil

    /// What is known of a binary whose content was not kept.
    package struct OmittedContent: Sendable, Equatable {
      package var byteCount: Int
      package var sha256: [UInt8]
    }

    package init(data: [UInt8], isProtected: Bool = false) {
      self.data = data
      self.isProtected = isProtected
    }
  }

  /// The binaries, in pool order.
  package private(set) var binaries: [Binary]

  package init(binaries: [Binary] = []) { self.binaries = binaries }

  /// The number of binaries.
  package var count: Int { binaries.count }

  /// The binary at `index`, or `nil`.
  package subscript(index: Int) -> Binary? {
    index >= 0 && index < binaries.count ? binaries[index] : nil
  }

  /// Adds `data` unless the same bytes are already stored, and returns its index.
  package mutating func add(_ data: [UInt8], isProtected: Bool = false) -> Int {
    if let index = binaries.firstIndex(where: { $0.data == data }) {
      if isProtected { binaries[index].isProtected = true }
      return index
    }
    binaries.append(Binary(data: data, isProtected: isProtected))
    return binaries.count - 1
  }

  /// Replaces every binary's content with its size and SHA-256 (``LoadOptions/loadsAttachmentContents`` off).
  mutating func omitContents() {
    for index in binaries.indices where binaries[index].omitted == nil {
      let data = binaries[index].data
      binaries[index].omitted = Binary.OmittedContent(byteCount: data.count, sha256: SHA256.hash(data).bytes)
      binaries[index].data = []
    }
  }

  /// Appends a binary without deduplication (used when reading, so file indices stay valid).
  mutating func appendAsRead(_ binary: Binary) { binaries.append(binary) }
}

import KDBXCrypto

/// An entry's reference to a binary of the database's ``BinaryPool`` (`Entry/Binary`: a `Key` name and a
/// `Value Ref="n"`). History entries refer to the same pool, so an attachment is stored once.
public struct Attachment: Sendable, Equatable {
  /// The file name shown to the user.
  public var name: String
  /// The index of the binary in ``Database/binaries``; ``missingBinaryIndex`` when the file's reference named no
  /// binary (see ``missingReference``).
  public var binaryIndex: Int
  /// The `Ref` the file gave when it named no binary of the file (a dangling reference, which KeePass drops when
  /// it opens the file): the attachment is kept, listed as missing, so that nothing is lost; `nil` otherwise.
  /// A save writes the reference back, still dangling (renumbered when the number has come to name a binary).
  public var missingReference: String?
  /// Unknown attributes of the `Value` element, kept for writing back.
  package var extraValueAttributes: [KDBXXMLAttribute]
  /// Unknown children and attributes of the `Binary` element, and the read order.
  package var layout: XMLLayout

  public init(name: String, binaryIndex: Int) {
    self.name = name
    self.binaryIndex = binaryIndex
    self.missingReference = nil
    self.extraValueAttributes = []
    self.layout = XMLLayout()
  }
}

extension Attachment {
  /// The ``binaryIndex`` of an attachment whose reference names no binary: past the end of any pool.
  public static let missingBinaryIndex = Int.max

  /// Whether the attachment's content is missing from the database (its reference names no binary).
  public func isMissing(in database: Database) -> Bool { database.binaries[binaryIndex] == nil }
}

/// The database's attachment contents: the KDBX 4 inner-header binaries or the KDBX 3.1 `Meta/Binaries`. Adding
/// content that is already in the pool returns the existing index (deduplication by content).
public struct BinaryPool: Sendable, Equatable {
  /// One stored binary.
  public struct Binary: Sendable, Equatable {
    /// The content.
    public var data: [UInt8]
    /// Whether the binary is flagged to be kept protected in memory.
    public var isProtected: Bool
    /// For a database opened without attachment contents (``LoadOptions/loadsAttachmentContents`` off): the
    /// size and SHA-256 of the content that was not kept (``data`` is then empty); `nil` otherwise.
    public var omitted: OmittedContent? = nil

    /// What is known of a binary whose content was not kept.
    public struct OmittedContent: Sendable, Equatable {
      public var byteCount: Int
      public var sha256: [UInt8]
    }

    public init(data: [UInt8], isProtected: Bool = false) {
      self.data = data
      self.isProtected = isProtected
    }
  }

  /// The binaries, in pool order.
  public private(set) var binaries: [Binary]

  public init(binaries: [Binary] = []) { self.binaries = binaries }

  /// The number of binaries.
  public var count: Int { binaries.count }

  /// The binary at `index`, or `nil`.
  public subscript(index: Int) -> Binary? {
    index >= 0 && index < binaries.count ? binaries[index] : nil
  }

  /// Adds `data` unless the same bytes are already stored, and returns its index.
  public mutating func add(_ data: [UInt8], isProtected: Bool = false) -> Int {
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

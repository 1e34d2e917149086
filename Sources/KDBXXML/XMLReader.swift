/// A strict, non-validating pull reader for XML 1.0 documents in UTF-8 (W3C XML 1.0, 5th edition).
///
/// ```swift
/// var reader = XMLReader(bytes: document)
/// while let event = try reader.next() { handle(event) }
/// ```
///
/// The reader checks well-formedness (§2.1) as it goes: matching tags, unique attributes, the `Char`
/// production (§2.2), names (§2.3), references (§4.1) and a single root element. Bad UTF-8 (RFC 3629) is an error.
/// It reads the five predefined entities (§4.6) and character references, normalizes line endings (§2.11) and
/// attribute values (§3.3.3), skips the XML declaration after checking it (§2.8), and refuses a document type
/// declaration unless asked, never expanding entities nor fetching anything. ``Limits`` bound depth, attribute
/// count, name and token sizes. Every error is an ``XMLError`` with the line and column of the problem.
///
/// After an error, `next()` throws the same error again.
public struct XMLReader {
  /// The options this reader was made with.
  public let options: Options

  /// When `true`, character data is still checked (characters, UTF-8, references, `]]>`) but not reported, and
  /// no string is made for it: for scans that only need the structure, such as a well-formedness check. CDATA
  /// sections, comments and processing instructions are reported as usual. It can be changed between events,
  /// for example to read the text of one element only. Default `false`.
  public var discardsText = false
  /// The text runs that ``discardsText`` kept from being reported so far: one for each `.text` event the reader
  /// would otherwise have returned (white-space-only text between markup is not text, as without it). A check that
  /// discards text counts the document's nodes with it as a reader that reports them does.
  package internal(set) var discardedTextCount = 0

  let input: [UInt8]
  /// The bytes of `input` while ``withBorrowedInput(_:)`` runs (`nil` otherwise): taken once for a whole scan,
  /// because `withUnsafeBufferPointer` on every event retains and releases the array each time.
  // SAFETY: set only inside withBorrowedInput's `withUnsafeBufferPointer` scope and reset by its defer, so
  // it is non-nil only while the pointer is valid (a copy of the reader must not outlive that call, as documented).
  var borrowed: UnsafeBufferPointer<UInt8>? = nil
  var position = 0
  var phase = Phase.start
  var openElements: [OpenElement] = []
  /// An empty-element tag was read: the next call reports its end.
  var pendingEnd = false
  /// The last event was a start tag (for the white-space rule of ``Options/keepsWhitespaceText``).
  var justStarted = false
  var names = XMLNameTable()
  var scratch: [UInt8] = []
  var attributeNameSpans: [Range<Int>] = []
  var failure: XMLError? = nil
  /// Whether `failure` is set (a plain flag is cheaper to test than the optional error on every event).
  var failed = false
  /// The classification tables, loaded once (a global's lazy-initialization check per token costs time).
  let byteClasses = ByteClass.table
  let nameClasses = ByteClass.nameTable

  enum Phase {
    case start, prolog, content, epilog, finished
  }

  struct OpenElement {
    var name: String
    var nameStart: Int
    var nameEnd: Int
  }

  /// Creates a reader over a whole document in UTF-8. A leading UTF-8 byte order mark is skipped.
  public init(bytes: [UInt8], options: Options = Options()) {
    self.input = bytes
    self.options = options
  }

  /// Runs `body` with this reader, whose events it reads (``next()``) through a pointer to the input taken once
  /// for the whole call: the package's long scans (the model reader, the tree parser, the read-back check) read
  /// 15-20% faster so than through the array on every event.
  ///
  /// The pointer is valid only while `body` runs, in the scope of the input's `withUnsafeBufferPointer`: neither
  /// the reader passed to `body` nor a copy of it may be used once `body` has returned (a copy would read through
  /// the pointer of a scope that has ended). The reader is left as `body` left it, reading through the array again.
  package mutating func withBorrowedInput<R, E: Error>(_ body: (inout XMLReader) throws(E) -> R) throws(E) -> R {
    // A local reference to the array (the same storage as `input`, which is never mutated): its pointer stays
    // valid for the closure, and taking it does not overlap the closure's access to `self`.
    let input = self.input
    // SAFETY: `borrowed` holds the pointer only while `body` runs inside this scope and is restored on the way
    // out (defer), so no read through it outlives the array's `withUnsafeBufferPointer`.
    return try input.withUnsafeBufferPointer { (bytes) throws(E) -> R in
      let outer = borrowed
      borrowed = bytes
      defer { borrowed = outer }
      return try body(&self)
    }
  }

  /// The number of elements open after the last event (the root element's content is depth 1).
  public var depth: Int { openElements.count }

  /// The 0-based byte offset the reader has reached.
  public var byteOffset: Int { position }

  /// Reads the next event, or returns `nil` at the end of a well-formed document.
  ///
  /// - Throws: ``XMLError`` for any well-formedness, encoding or limit violation, with its line and column.
  public mutating func next() throws(XMLError) -> XMLEvent? {
    if failed, let failure { throw failure }
    do throws(ScanFailure) {
      if let borrowed { return try scan(borrowed) }
      // A local reference to the array, so that reading it does not overlap the scan's access to `self`.
      let input = self.input
      // SAFETY: the scan reads through the pointer only within this closure, bounded by the buffer's count.
      return try input.withUnsafeBufferPointer { bytes throws(ScanFailure) in try scan(bytes) }
    } catch {
      throw failing(error)
    }
  }

  /// Appends the next events to `events`, as ``next()`` would return them, until `count` have been appended or
  /// the document ends (then `false`). One call reads a whole batch for the event pipeline's helper, whose
  /// per-event calls into this module and copies of each event through them cost a fifth of its time.
  /// - Throws: what ``next()`` throws, after appending the events before the error.
  package mutating func readEvents(into events: inout [XMLEvent], count: Int) throws(XMLError) -> Bool {
    if failed, let failure { throw failure }
    // A local reference to the array, so that reading it does not overlap the scan's access to `self`.
    let input = self.input
    do throws(ScanFailure) {
      // SAFETY: the scan reads through the pointer only within this closure (or `borrowed`'s scope, which
      // encloses this call), bounded by the buffer's count.
      return try input.withUnsafeBufferPointer { (bytes) throws(ScanFailure) -> Bool in
        let p = borrowed ?? bytes
        var appended = 0
        while appended < count {
          guard let event = try scan(p) else { return false }
          events.append(event)
          appended += 1
        }
        return true
      }
    } catch {
      throw failing(error)
    }
  }

  /// `failure` as the ``XMLError`` the reader throws from now on.
  private mutating func failing(_ failure: ScanFailure) -> XMLError {
    let error = self.error(failure.kind, at: failure.offset)
    self.failure = error
    failed = true
    phase = .finished
    return error
  }

  /// The 1-based line and column (in Unicode scalars) of a byte offset, after the XML 1.0 §2.11 end-of-line
  /// rules. Computed on demand, so the scanning loops do not track lines.
  public func location(ofByteOffset offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    let end = min(max(offset, 0), input.count)
    var index = input.starts(with: [0xEF, 0xBB, 0xBF]) && end >= 3 ? 3 : 0
    while index < end {
      let byte = input[index]
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte == 0x0D {
        if index + 1 < input.count && input[index + 1] == 0x0A {
          // Counted by the following line feed.
        } else {
          line += 1
          column = 1
        }
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      index += 1
    }
    return (line, column)
  }

  func error(_ kind: XMLError.Kind, at offset: Int) -> XMLError {
    let (line, column) = location(ofByteOffset: offset)
    return XMLError(kind, line: line, column: column, byteOffset: offset)
  }
}

/// An error found inside the scanning kernel, turned into an ``XMLError`` (with line and column) outside it.
struct ScanFailure: Error {
  var kind: XMLError.Kind
  var offset: Int

  init(_ kind: XMLError.Kind, _ offset: Int) {
    self.kind = kind
    self.offset = offset
  }
}

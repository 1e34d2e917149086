import KDBXXML
import Testing
import VectorSupport

/// `XMLReader.withBorrowedInput`, the package's fast path: inside it the reader reads through a pointer taken once,
/// outside it through the array on every event. Both must give the same events and the same errors, and a reader
/// leaves the scope reading through the array again.
@Suite("XML reader: borrowed input")
struct XMLBorrowedInputTests {
  /// The events of `bytes` up to the end or the first error, read `split` events at a time outside the borrowed
  /// scope and the rest inside it (`split` 0: all inside; `nil`: all outside).
  static func outcome(_ bytes: [UInt8], borrowingAfter split: Int?) -> ([XMLEvent], XMLError?) {
    var reader = XMLReader(bytes: bytes)
    var all: [XMLEvent] = []
    do {
      if let split {
        for _ in 0..<split {
          guard let event = try reader.next() else { return (all, nil) }
          all.append(event)
        }
        try reader.withBorrowedInput { (reader) throws(XMLError) in
          while let event = try reader.next() { all.append(event) }
        }
      } else {
        while let event = try reader.next() { all.append(event) }
      }
      return (all, nil)
    } catch {
      return (all, error)
    }
  }

  static var documents: [[UInt8]] {
    Vectors.records("xml/xml10-wellformed.vec").map { $0.bytes("document") }
      + Vectors.records("xml/xml10-invalid.vec").map { $0.bytes("document") }
  }

  @Test("the same events and errors inside and outside the borrowed scope")
  func sameOutcome() {
    let documents = Self.documents
    #expect(documents.count > 40)
    for (index, document) in documents.enumerated() {
      let plain = Self.outcome(document, borrowingAfter: nil)
      for split in [0, 1, 3] {
        let borrowed = Self.outcome(document, borrowingAfter: split)
        #expect(borrowed.0 == plain.0, "document \(index), split \(split)")
        #expect(borrowed.1 == plain.1, "document \(index), split \(split)")
      }
    }
  }

  @Test("a KeePass-like document and damaged copies of it")
  func keePassLikeDocuments() {
    let document = keePassLikeDocument(targetBytes: 200_000)
    var random = SplitMix64(seed: 5)
    var samples = [document]
    for _ in 0..<20 {
      var damaged = document
      damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next())
      samples.append(damaged)
    }
    for sample in samples {
      let plain = Self.outcome(sample, borrowingAfter: nil)
      let borrowed = Self.outcome(sample, borrowingAfter: 0)
      #expect(borrowed.0 == plain.0)
      #expect(borrowed.1 == plain.1)
    }
  }

  /// The events of `bytes` read `batch` at a time with `readEvents` (the event pipeline's helper), inside the
  /// borrowed scope or not.
  static func batchOutcome(_ bytes: [UInt8], batch: Int, borrowing: Bool) -> ([XMLEvent], XMLError?) {
    var reader = XMLReader(bytes: bytes)
    var events: [XMLEvent] = []
    func readAll(_ reader: inout XMLReader) throws(XMLError) {
      while try reader.readEvents(into: &events, count: batch) {}
    }
    var error: XMLError? = nil
    do {
      if borrowing {
        try reader.withBorrowedInput { (reader) throws(XMLError) in try readAll(&reader) }
      } else {
        try readAll(&reader)
      }
    } catch let failure {
      error = failure
    }
    return (events, error)
  }

  @Test("batches: the same events and errors as one event at a time")
  func batchesReadAsNextDoes() {
    let document = keePassLikeDocument(targetBytes: 50_000)
    var random = SplitMix64(seed: 9)
    var samples = Self.documents + Vectors.records("xml/xml10-invalid.vec").map { $0.bytes("document") } + [document]
    for _ in 0..<10 {
      var damaged = document
      damaged[Int(random.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: random.next())
      samples.append(damaged)
    }
    for (index, sample) in samples.enumerated() {
      let plain = Self.outcome(sample, borrowingAfter: nil)
      for batch in [1, 3, 64] {
        for borrowing in [false, true] {
          let read = Self.batchOutcome(sample, batch: batch, borrowing: borrowing)
          #expect(read.0 == plain.0, "sample \(index), batch \(batch), \(borrowing)")
          #expect(read.1 == plain.1, "sample \(index), batch \(batch), \(borrowing)")
        }
      }
    }
  }

  @Test("after the scope the reader goes on reading through the array")
  func readerOutlivesTheScope() throws {
    let document = Array("<a><b>one</b><c>two</c><d/></a>".utf8)
    var reader = XMLReader(bytes: document)
    var inside: [XMLEvent] = []
    try reader.withBorrowedInput { (reader) throws(XMLError) in
      for _ in 0..<3 { if let event = try reader.next() { inside.append(event) } }
    }
    var after: [XMLEvent] = []
    while let event = try reader.next() { after.append(event) }
    let plain = Self.outcome(document, borrowingAfter: nil).0
    #expect(inside + after == plain)
    #expect(inside.count == 3)
  }
}

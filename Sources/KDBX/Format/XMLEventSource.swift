import KDBXXML

/// Where ``DatabaseXMLReader`` takes its XML events from: the pull reader over the document's bytes (the open
/// path, no tree), or a walk over an ``XMLElement`` tree already in memory. Both give the events of
/// ``XMLReader``: a start and an end per element, and text, CDATA, comments and processing instructions.
protocol XMLEventSource {
  /// The next event, or `nil` after the end of the document.
  mutating func nextEvent() throws(XMLError) -> XMLEvent?
}

extension XMLReader: XMLEventSource {
  mutating func nextEvent() throws(XMLError) -> XMLEvent? { try next() }
}

/// The events of an ``XMLElement`` tree, in document order, walked with an explicit stack (deep trees do not
/// use the call stack). Nesting deeper than `maximumDepth` is refused as the pull reader refuses it.
struct XMLTreeEventSource: XMLEventSource {
  private var stack: [(element: XMLElement, next: Int)] = []
  private var root: XMLElement?
  private let maximumDepth: Int

  init(_ root: XMLElement, maximumDepth: Int) {
    self.root = root
    self.maximumDepth = maximumDepth
  }

  mutating func nextEvent() throws(XMLError) -> XMLEvent? {
    if let element = root {
      root = nil
      return start(element)
    }
    while let top = stack.last {
      let index = top.next
      guard index < top.element.children.count else {
        stack.removeLast()
        return .endElement(name: top.element.name)
      }
      stack[stack.count - 1].next = index + 1
      switch top.element.children[index] {
      case .element(let child):
        guard stack.count < maximumDepth else {
          throw XMLError(.limitExceeded(.depth), line: 0, column: 0)
        }
        return start(child)
      case .text(let text): return .text(text)
      case .cdata(let text): return .cdata(text)
      case .comment(let text): return .comment(text)
      case .processingInstruction(let target, let data): return .processingInstruction(target: target, data: data)
      }
    }
    return nil
  }

  private mutating func start(_ element: XMLElement) -> XMLEvent {
    stack.append((element, 0))
    return .startElement(name: element.name, attributes: element.attributes)
  }
}

#if !$Embedded
  /// The events of an ``XMLEventPipeline``, one at a time, for ``DatabaseModelReader``. Kept in this module: the
  /// model reader's specialised code then inlines ``nextEvent()``, called once per event (in KDBXXML, beside the
  /// pipeline, the model stage of large_5000's open took 20% longer).
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  struct PipelinedXMLEventSource: XMLEventSource {
    let pipeline: XMLEventPipeline
    /// The current batch's remaining events, last first.
    private var events: [XMLEvent] = []
    /// The end of reading, once a batch brought it: reported after that batch's events.
    private var end: XMLEventPipeline.End? = nil

    init(_ pipeline: XMLEventPipeline) {
      self.pipeline = pipeline
    }

    mutating func nextEvent() throws(XMLError) -> XMLEvent? {
      guard let event = events.popLast() else { return try nextBatch() }
      return event
    }

    private mutating func nextBatch() throws(XMLError) -> XMLEvent? {
      while true {
        switch end {
        case .finished: return nil
        case .failed(let error): throw error
        case nil: break
        }
        let batch = pipeline.nextBatch()
        events = batch.reversedEvents
        end = batch.end
        if let event = events.popLast() { return event }
      }
    }
  }
#endif

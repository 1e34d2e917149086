extension XMLReader {
  /// Resource limits that bound what a hostile document can make the reader (and the tree builder) do.
  /// Exceeding one throws ``XMLError/Kind/limitExceeded(_:)`` at the offending token.
  public struct Limits: Sendable, Equatable {
    /// The deepest element nesting allowed; the root element is depth 1. Default 1024 (KeePass group trees are
    /// rarely deeper than a few dozen levels).
    public var maximumDepth: Int
    /// The most attributes one element may carry. Default 256.
    public var maximumAttributeCount: Int
    /// The longest element, attribute, entity or processing-instruction target name, in bytes. Default 1024.
    public var maximumNameLength: Int
    /// The longest text run, attribute value, CDATA section, comment or processing instruction, in bytes of
    /// input. Default `Int.max`: no limit beyond the input size (KDBX 3 files keep whole attachments as base64
    /// text).
    public var maximumTokenLength: Int

    public init(
      maximumDepth: Int = 1024, maximumAttributeCount: Int = 256, maximumNameLength: Int = 1024,
      maximumTokenLength: Int = .max
    ) {
      self.maximumDepth = maximumDepth
      self.maximumAttributeCount = maximumAttributeCount
      self.maximumNameLength = maximumNameLength
      self.maximumTokenLength = maximumTokenLength
    }
  }

  /// How an ``XMLReader`` reads.
  public struct Options: Sendable, Equatable {
    /// When `false` (the default), white-space-only text between markup, such as indentation, is not reported.
    /// White-space-only text that is the whole content of an element (`<Value> </Value>`) is data and is always
    /// reported. When `true`, every text run is reported.
    public var keepsWhitespaceText: Bool
    /// When `false` (the default), a document type declaration (`<!DOCTYPE`, XML 1.0 §2.8) is an error
    /// (``XMLError/Kind/doctypeNotAllowed``). When `true`, it is skipped unread: its internal subset is never
    /// processed and nothing is fetched, so entities it declares stay undefined. Either way, XXE and
    /// entity-expansion ("billion laughs") attacks cannot work.
    public var allowsDoctype: Bool
    /// Resource limits.
    public var limits: Limits

    public init(keepsWhitespaceText: Bool = false, allowsDoctype: Bool = false, limits: Limits = Limits()) {
      self.keepsWhitespaceText = keepsWhitespaceText
      self.allowsDoctype = allowsDoctype
      self.limits = limits
    }
  }
}

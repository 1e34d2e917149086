import KDBX

extension StorableText {
  /// Refuses `text` (named `what` in the message) when a KeePass file cannot store it in a plain field or a name.
  static func check(_ text: String?, as what: String) throws(ImportError) {
    if let problem = problem(text, as: what) { throw .unstorableText(problem) }
  }
}

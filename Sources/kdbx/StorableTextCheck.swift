import KDBX

extension StorableText {
  /// Refuses `text` (given as `what`, for example `--notes`) when it holds a character a plain field cannot store.
  static func check(_ text: String?, as what: String) throws(CLIError) {
    if let problem = problem(text, as: what) { throw .usage(problem + "; nothing was changed") }
  }
}

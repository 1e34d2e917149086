import KDBXBase

extension SelfTestReport {
  /// Each check as `{primitive, source, passed, expected, actual, error?}`: the `checks` array that
  /// `kdbx selftest --json` and the WebAssembly module's `kdbx_selftest` both write.
  package var checksJSON: JSONValue {
    .array(
      results.map { result -> JSONValue in
        var fields: [(String, JSONValue)] = [
          ("primitive", .string(result.primitive)), ("source", .string(result.source)),
          ("passed", .bool(result.passed)), ("expected", .string(result.expectedHex)),
          ("actual", .string(result.actualHex)),
        ]
        if let error = result.error { fields.append(("error", .string(error))) }
        return .object(fields)
      })
  }
}

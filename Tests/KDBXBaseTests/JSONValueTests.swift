import KDBXBase
import Testing

/// The JSON text `JSONValue` renders (the CLI's `--json`, `export --format json`, the WebAssembly module), and
/// values nested as deep as a group tree: `kdbx ls -R --json` nests each group's items in its parent's.
@Suite struct JSONValueTests {
  static var sample: JSONValue {
    .object([
      ("s", .string("a\"b\\c\n\u{1}")), ("n", .number(-3)), ("d", .double(1.5)), ("inf", .double(.infinity)),
      ("t", .bool(true)), ("f", .bool(false)), ("null", .null), ("empty", .array([])), ("none", .object([])),
      ("list", .array([.number(1), .array([.string("x")]), .object([("k", .null)])])),
    ])
  }

  @Test func prettyAndCompactText() {
    #expect(
      Self.sample.rendered() == """
        {
          "s": "a\\"b\\\\c\\n\\u0001",
          "n": -3,
          "d": 1.5,
          "inf": null,
          "t": true,
          "f": false,
          "null": null,
          "empty": [],
          "none": {},
          "list": [
            1,
            [
              "x"
            ],
            {
              "k": null
            }
          ]
        }
        """)
    #expect(
      Self.sample.rendered(pretty: false)
        == #"{"s":"a\"b\\c\n\u0001","n":-3,"d":1.5,"inf":null,"t":true,"f":false,"null":null,"empty":[],"none":{},"list":[1,["x"],{"k":null}]}"#
    )
    #expect(JSONValue.string("x").rendered() == #""x""#)
    #expect(JSONValue.array([]).rendered(pretty: false) == "[]")
  }

  /// A hundred thousand levels of arrays and objects render (with an explicit stack, not by recursion), and
  /// `release` frees them a level at a time.
  @Test func aHundredThousandLevelsRenderAndRelease() {
    let depth = 100_000
    var value = JSONValue.number(7)
    for level in 0..<depth {
      value = level % 2 == 0 ? .array([value]) : .object([("k", value)])
    }
    let compact = value.rendered(pretty: false)
    // Checked outside `#expect`, which would print the whole text if it failed. The innermost `[7]` is closed by
    // the 99,999 levels around it: `}` `]` `}` ... `}`.
    let length = compact.utf8.count
    let opens = compact.hasPrefix(#"{"k":[{"k":["#)
    let closes = compact.hasSuffix("[7]}" + String(repeating: "]}", count: depth / 2 - 1))
    #expect(length == depth / 2 * 2 + depth / 2 * 6 + 1)
    #expect(opens)
    #expect(closes)
    JSONValue.release(&value)
    guard case .null = value else {
      Issue.record("release leaves .null")
      return
    }
    // Pretty text grows with the square of the depth (its indentation): a thousand levels.
    var nested = JSONValue.null
    for _ in 0..<1_000 { nested = .array([nested]) }
    let pretty = nested.rendered()
    let lines = pretty.utf8.filter { $0 == 0x0A }.count
    let prettyCloses = pretty.hasSuffix("\n  ]\n]")
    #expect(lines == 2_000)
    #expect(prettyCloses)
    JSONValue.release(&nested)
  }
}

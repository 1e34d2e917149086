import KDBXXML
import Testing

/// `XMLElement.==`, written by hand with an explicit stack (XMLElement+Equality.swift) instead of synthesised: it
/// finds what the synthesised one found, and compares trees of any depth (an app may build one far deeper than the
/// reader accepts; the synthesised `==` recursed once per level and ran out of stack).
@Suite struct XMLElementEqualityTests {
  /// A chain of `depth` elements, the innermost holding `leaf` as text. Built bottom up, without recursion.
  static func chain(depth: Int, leaf: String) -> XMLElement {
    var current = XMLElement(name: "E", children: [.text(leaf)])
    for level in 1..<depth {
      current = XMLElement(
        name: "E", attributes: [XMLAttribute(name: "n", value: "\(level)")],
        children: [.comment("c"), .element(current)])
    }
    return current
  }

  /// Takes a tree apart a level at a time: the runtime frees nested arrays recursively.
  static func dismantle(_ element: inout XMLElement) {
    var pending = element.children
    element.children = []
    while let node = pending.popLast() {
      guard case .element(var inner) = node else { continue }
      pending.append(contentsOf: inner.children)
      inner.children = []
    }
  }

  @Test func aHundredThousandLevelsCompareWithoutACrash() {
    var left = Self.chain(depth: 100_000, leaf: "bottom")
    defer { Self.dismantle(&left) }
    var right = Self.chain(depth: 100_000, leaf: "bottom")
    defer { Self.dismantle(&right) }
    var different = Self.chain(depth: 100_000, leaf: "other")
    defer { Self.dismantle(&different) }
    // Compared outside `#expect`, which would describe a hundred thousand levels if it failed.
    let equal = left == right
    let unequal = left == different
    #expect(equal)
    #expect(!unequal)
  }

  @Test func namesAttributesAndEveryKindOfChildCount() {
    let base = XMLElement(
      name: "A", attributes: [XMLAttribute(name: "x", value: "1")],
      children: [
        .text("t"), .cdata("c"), .comment("m"), .processingInstruction(target: "p", data: "d"),
        .element(XMLElement(name: "B", children: [.text("inner")])),
      ])
    #expect(base == base)
    var copy = base
    copy.children.append(.text(""))
    #expect(copy != base)
    let variants: [XMLElement] = [
      XMLElement(name: "Z", attributes: base.attributes, children: base.children),
      XMLElement(name: "A", attributes: [], children: base.children),
      XMLElement(name: "A", attributes: [XMLAttribute(name: "x", value: "2")], children: base.children),
      XMLElement(name: "A", attributes: base.attributes, children: Array(base.children.dropLast())),
      XMLElement(
        name: "A", attributes: base.attributes,
        children: Array(base.children.dropLast()) + [.element(XMLElement(name: "B", children: [.text("else")]))]),
      XMLElement(
        name: "A", attributes: base.attributes,
        children: [.cdata("t")] + Array(base.children.dropFirst())),
      XMLElement(
        name: "A", attributes: base.attributes,
        children: Array(base.children.dropLast()) + [.text("B")]),
    ]
    for variant in variants {
      #expect(variant != base)
      #expect(base != variant)
    }
    #expect(XMLElement(name: "A", attributes: base.attributes, children: base.children) == base)
  }
}

extension XMLElement {
  /// Two elements are equal when their names, attributes and children are, as a synthesised `==` would find; the
  /// child elements are compared with an explicit stack, not by recursion, so that comparing trees of any depth (an
  /// app can build one deeper than the reader's limit) takes the same call stack as comparing two leaves.
  public static func == (lhs: XMLElement, rhs: XMLElement) -> Bool {
    var pending = [(lhs, rhs)]
    while let (left, right) = pending.popLast() {
      guard left.name == right.name, left.attributes == right.attributes,
        left.children.count == right.children.count
      else { return false }
      // Children in one shared buffer (a copy of the same tree) are equal without a look inside.
      if sharesStorage(left.children, right.children) { continue }
      for index in left.children.indices {
        switch (left.children[index], right.children[index]) {
        case (.element(let leftChild), .element(let rightChild)): pending.append((leftChild, rightChild))
        case (.element, _), (_, .element): return false
        case (let leftNode, let rightNode): if leftNode != rightNode { return false }
        }
      }
    }
    return true
  }

  /// Whether `left` and `right` are the same array storage (as `Array`'s own `==` checks first).
  private static func sharesStorage(_ left: [XMLNode], _ right: [XMLNode]) -> Bool {
    // SAFETY: only the two base addresses are compared; no element is read through them, and neither pointer
    // leaves its closure.
    left.withUnsafeBufferPointer { leftBuffer in
      right.withUnsafeBufferPointer { rightBuffer in leftBuffer.baseAddress == rightBuffer.baseAddress }
    }
  }
}

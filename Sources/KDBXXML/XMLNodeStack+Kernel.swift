// The tree builder's stack of pending child nodes, kept in manually managed memory so that finishing an element
// can move its children into their array instead of copying them (one retain and one release less per node).

/// A stack of ``XMLNode``s whose top part can be moved out into an array.
final class XMLNodeStack {
  // SAFETY: `base` is this object's own allocation of `capacity` nodes, of which exactly the first `count`
  // are initialised (push initialises slot count < capacity, popArray moves out start..<count, grow moves all);
  // deinit deinitialises those and frees it once. Not Sendable: one tree builder uses it on one thread.
  private var base: UnsafeMutablePointer<XMLNode>
  private var capacity: Int
  /// The number of nodes on the stack.
  private(set) var count = 0

  init() {
    capacity = 256
    base = UnsafeMutablePointer<XMLNode>.allocate(capacity: capacity)
  }

  deinit {
    // SAFETY: exactly the first `count` slots are initialized.
    base.deinitialize(count: count)
    base.deallocate()
  }

  func push(_ node: consuming XMLNode) {
    if count == capacity { grow() }
    // SAFETY: count < capacity, and slot `count` is uninitialized.
    (base + count).initialize(to: node)
    count += 1
  }

  /// Removes the nodes from `start` to the top and returns them, in order, in an array of exactly that size.
  func popArray(from start: Int) -> [XMLNode] {
    precondition(start >= 0 && start <= count)
    let length = count - start
    if length == 0 { return [] }
    let nodes = [XMLNode](unsafeUninitializedCapacity: length) { buffer, initialized in
      if let destination = buffer.baseAddress {
        // SAFETY: slots start..<count are initialized and become uninitialized after the move; the destination
        // has room for `length` nodes.
        destination.moveInitialize(from: base + start, count: length)
        initialized = length
      }
    }
    count = start
    return nodes
  }

  private func grow() {
    let newCapacity = capacity * 2
    let newBase = UnsafeMutablePointer<XMLNode>.allocate(capacity: newCapacity)
    // SAFETY: the first `count` slots of base are initialized; they move to the new buffer.
    newBase.moveInitialize(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }
}

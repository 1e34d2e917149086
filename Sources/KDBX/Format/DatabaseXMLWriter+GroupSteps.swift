/// What the writer does inside one `Group` element, in order: the positions of its layout's write order
/// (``XMLLayout/forEachInWriteOrder(_:_:)``), with its entries and subgroups in the interleaving they were read in
/// (entries first for new content), all at the first of the two positions (the second writes nothing). A frame
/// of the writer's explicit stack over the group tree (`DatabaseXMLWalk.group(_:parent:into:)`).
struct GroupSteps {
  enum Step {
    /// A kept node: the byte range in the layout's kept bytes.
    case kept(Range<Int>)
    /// A known child other than entries and subgroups.
    case field(String)
    /// The entry at this index of ``Group/entries``.
    case entry(Int)
    /// The subgroup at this index of ``Group/groups``.
    case group(Int)
  }

  let group: Group
  private var steps: [Step] = []
  private var position = 0

  init(_ group: Group) {
    self.group = group
    var first: String? = nil
    KeptXML.forEachItem(in: group.layout.kept) { item in
      if first == nil, case .known(let known) = item, known == XMLNames.entry || known == XMLNames.group {
        first = known
      }
    }
    let childrenAt = first ?? XMLNames.entry
    var steps: [Step] = []
    group.layout.forEachInWriteOrder(.group) { slot in
      switch slot {
      case .kept(let range): steps.append(.kept(range))
      case .known(let name) where name == XMLNames.entry || name == XMLNames.group:
        if name == childrenAt { Self.appendChildren(of: group, to: &steps) }
      case .known(let name): steps.append(.field(name))
      }
    }
    self.steps = steps
  }

  /// Entries and subgroups in ``Group/childOrder``, then those it does not cover, entries first.
  private static func appendChildren(of group: Group, to steps: inout [Step]) {
    var entryIndex = 0
    var groupIndex = 0
    for isEntry in group.childOrder {
      if isEntry, entryIndex < group.entries.count {
        steps.append(.entry(entryIndex))
        entryIndex += 1
      } else if !isEntry, groupIndex < group.groups.count {
        steps.append(.group(groupIndex))
        groupIndex += 1
      }
    }
    while entryIndex < group.entries.count {
      steps.append(.entry(entryIndex))
      entryIndex += 1
    }
    while groupIndex < group.groups.count {
      steps.append(.group(groupIndex))
      groupIndex += 1
    }
  }

  /// The next step, or `nil` when the group's element ends.
  mutating func next() -> Step? {
    guard position < steps.count else { return nil }
    defer { position += 1 }
    return steps[position]
  }
}

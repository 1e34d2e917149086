import KDBX
import KDBXXML
import Testing

/// `Group.==`, written by hand with an explicit stack (Group+Equality.swift) instead of synthesised: it must find
/// what the synthesised one found, property by property, at any depth.
@Suite struct GroupEqualityTests {
  static let uuid = KDBXUUID(bytes: [UInt8](repeating: 1, count: 16)) ?? .zero
  static let other = KDBXUUID(bytes: [UInt8](repeating: 2, count: 16)) ?? .zero

  /// A group with every property set and one subgroup.
  static func sample() -> Group {
    var group = Group(uuid: uuid, name: "G")
    group.notesText = "notes"
    group.iconID = 3
    group.customIconUUID = uuid
    group.times = Times(creationTime: Timestamp(unixSeconds: 1))
    group.isExpanded = true
    group.defaultAutoTypeSequence = "{USERNAME}"
    group.enableAutoType = .some(nil)
    group.enableSearching = true
    group.lastTopVisibleEntry = uuid
    group.previousParentGroup = uuid
    group.tagsText = "a;b"
    group.customData = CustomData(items: [CustomData.Item(key: "k", value: "v")])
    group.entries = [Entry(uuid: uuid)]
    group.groups = [Group(uuid: other, name: "Sub")]
    group.childOrder = [true, false]
    return group
  }

  /// The test below changes each stored property in turn: a property added to `Group` must be added to `==` and
  /// there (this count says when).
  @Test func everyStoredPropertyIsListed() {
    #expect(Mirror(reflecting: Group(uuid: .zero, name: nil)).children.count == 18)
  }

  @Test func aChangeToAnyPropertyAtAnyDepthMakesGroupsDiffer() {
    let base = Self.sample()
    #expect(base == Self.sample())
    let changes: [(String, (inout Group) -> Void)] = [
      ("uuid", { $0.uuid = Self.other }),
      ("nameText", { $0.nameText = nil }),
      ("notesText", { $0.notesText = "other" }),
      ("iconID", { $0.iconID = 4 }),
      ("customIconUUID", { $0.customIconUUID = nil }),
      ("times", { $0.times?.creationTime = Timestamp(unixSeconds: 2) }),
      ("isExpanded", { $0.isExpanded = false }),
      ("defaultAutoTypeSequence", { $0.defaultAutoTypeSequence = nil }),
      ("enableAutoType", { $0.enableAutoType = .some(true) }),
      ("enableSearching", { $0.enableSearching = nil }),
      ("lastTopVisibleEntry", { $0.lastTopVisibleEntry = Self.other }),
      ("previousParentGroup", { $0.previousParentGroup = nil }),
      ("tagsText", { $0.tagsText = "a" }),
      ("customData", { $0.customData = nil }),
      ("entries", { $0.entries[0].title = "changed" }),
      ("groups", { $0.groups.append(Group(uuid: Self.other, name: "Sub")) }),
      ("childOrder", { $0.childOrder = [false, true] }),
      ("layout", { $0.layout = XMLLayout(items: [.unknown(.comment("kept"))]) }),
    ]
    /// `group` two levels down, after a sibling.
    func nested(_ group: Group) -> Group {
      var middle = Group(uuid: Self.other, name: "Middle")
      middle.groups = [group]
      var outer = Group(uuid: Self.other, name: "Outer")
      outer.groups = [Group(uuid: .zero, name: "First"), middle]
      return outer
    }
    #expect(nested(base) == nested(Self.sample()))
    for (name, change) in changes {
      var changed = base
      change(&changed)
      #expect(changed != base, "\(name)")
      #expect(nested(changed) != nested(base), "\(name), two levels down")
    }
  }

  /// A copy shares its subgroups' storage: equal without a walk, and still different once one side changes.
  @Test func aCopyIsEqualAndAChangedCopyIsNot() {
    let base = Self.sample()
    var copy = base
    #expect(copy == base)
    copy.groups[0].nameText = "Renamed"
    #expect(copy != base)
  }
}

/// `Entry.==`, written by hand with an explicit stack over the history (Entry+Equality.swift) instead of
/// synthesised: it must find what the synthesised one found, property by property, at any history depth.
@Suite struct EntryEqualityTests {
  static let uuid = GroupEqualityTests.uuid
  static let other = GroupEqualityTests.other

  /// An entry with every property set and one history version.
  static func sample() -> Entry {
    var entry = Entry(uuid: uuid)
    entry.iconID = 3
    entry.customIconUUID = uuid
    entry.foregroundColor = "#000000"
    entry.backgroundColor = "#FFFFFF"
    entry.overrideURL = "cmd://x"
    entry.qualityCheck = true
    entry.tagsText = "a;b"
    entry.previousParentGroup = uuid
    entry.times = Times(creationTime: Timestamp(unixSeconds: 1))
    entry.customData = CustomData(items: [CustomData.Item(key: "k", value: "v")])
    entry.fields = [EntryField(key: "Title", value: .plain("T"))]
    entry.attachments = [Attachment(name: "a.txt", binaryIndex: 0)]
    entry.autoType = AutoType(enabled: true)
    var old = Entry(uuid: uuid)
    old.fields = [EntryField(key: "Title", value: .plain("Old"))]
    entry.history = [old]
    return entry
  }

  /// A property added to `Entry` must be added to `==` and to the test below (this count says when).
  @Test func everyStoredPropertyIsListed() {
    #expect(Mirror(reflecting: Entry(uuid: .zero)).children.count == 17)
  }

  @Test func aChangeToAnyPropertyMakesEntriesDiffer() {
    let base = Self.sample()
    #expect(base == Self.sample())
    let changes: [(String, (inout Entry) -> Void)] = [
      ("uuid", { $0.uuid = Self.other }),
      ("iconID", { $0.iconID = nil }),
      ("customIconUUID", { $0.customIconUUID = Self.other }),
      ("foregroundColor", { $0.foregroundColor = nil }),
      ("backgroundColor", { $0.backgroundColor = "#FFFFFE" }),
      ("overrideURL", { $0.overrideURL = nil }),
      ("qualityCheck", { $0.qualityCheck = false }),
      ("tagsText", { $0.tagsText = "a" }),
      ("previousParentGroup", { $0.previousParentGroup = nil }),
      ("times", { $0.times?.expires = true }),
      ("customData", { $0.customData = CustomData() }),
      ("fields", { $0.fields[0].value = .plain("U") }),
      ("attachments", { $0.attachments = [] }),
      ("autoType", { $0.autoType?.defaultSequence = "{TAB}" }),
      ("history", { $0.history?[0].fields = [] }),
      ("history nil", { $0.history = nil }),
      ("history count", { $0.history?.append(Entry(uuid: Self.other)) }),
      ("historyLayout", { $0.historyLayout = XMLLayout(items: [.unknown(.comment("kept"))]) }),
      ("layout", { $0.layout = XMLLayout(items: [.unknown(.comment("kept"))]) }),
    ]
    for (name, change) in changes {
      var changed = base
      change(&changed)
      #expect(changed != base, "\(name)")
      #expect(base != changed, "\(name)")
      // The same change one history version down.
      var outer = Entry(uuid: Self.other)
      outer.history = [base]
      var changedOuter = Entry(uuid: Self.other)
      changedOuter.history = [changed]
      #expect(changedOuter != outer, "\(name), in the history")
    }
  }

  /// History nested a hundred thousand versions deep, as an app can build it: compared without a crash.
  @Test func historyNestedAHundredThousandDeepCompares() {
    func nested(_ title: String) -> Entry {
      var entry = Entry(uuid: Self.uuid)
      entry.fields = [EntryField(key: "Title", value: .plain(title))]
      for _ in 0..<100_000 {
        var outer = Entry(uuid: Self.uuid)
        outer.history = [entry]
        entry = outer
      }
      return entry
    }
    /// Takes the chain apart a version at a time: the runtime frees nested arrays recursively.
    func dismantle(_ entry: inout Entry) {
      var pending = entry.history ?? []
      entry.history = nil
      while var next = pending.popLast() {
        pending.append(contentsOf: next.history ?? [])
        next.history = nil
      }
    }
    var left = nested("bottom")
    defer { dismantle(&left) }
    var right = nested("bottom")
    defer { dismantle(&right) }
    var other = nested("other")
    defer { dismantle(&other) }
    // Compared outside `#expect`, which would describe a hundred thousand levels if it failed.
    let equal = left == right
    let unequal = left == other
    #expect(equal)
    #expect(!unequal)
  }
}

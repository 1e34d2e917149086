import KDBX

/// The group tree of an import, built flat and assembled once at the end: each group is found by its parent and
/// name in a hash table (linear time in the number of path parts, whatever the number of groups), paths are
/// walked part by part without copying the rest, and nothing recurses over the depth, which comes from the input.
/// Paths deeper than the library's cap on group nesting are refused (the cap of every tree the library makes or
/// opens, `LoadOptions.maxGroupDepth`), before any password is asked for.
struct ImportedGroupTree {
  private struct ChildKey: Hashable {
    var parent: Int
    var name: String
  }

  /// Every group, the root first; a group's parent comes before it.
  private var groups: [Group]
  /// The subgroups of each group, by index, in the order they were made.
  private var children: [[Int]]
  private var index: [ChildKey: Int] = [:]
  /// The deepest group nesting allowed, the root counting as 1.
  static let maxDepth = LoadOptions.default.maxGroupDepth

  init(root: Group) {
    self.groups = [root]
    self.children = [[]]
  }

  /// The number of groups below the root.
  var count: Int { groups.count - 1 }

  /// The index of the group at `path` below the root, made (with the groups above it) when missing.
  /// - Throws: when the path is deeper than ``maxDepth`` allows, the words of the library's open.
  mutating func group(
    at path: [String], clock: some WallClock, random: inout some RandomNumberGenerator
  ) throws(ImportError) -> Int {
    try Self.check(path)
    var current = 0
    for name in path {
      let key = ChildKey(parent: current, name: name)
      if let found = index[key] {
        current = found
        continue
      }
      let made = groups.count
      groups.append(Group.new(name: name, clock: clock, random: &random))
      children.append([])
      children[current].append(made)
      index[key] = made
      current = made
    }
    return current
  }

  /// Refuses a path below the root that makes the tree deeper than ``maxDepth``, or whose names are empty or
  /// hold text a KeePass file cannot store.
  static func check(_ path: [String]) throws(ImportError) {
    let depth = path.count + 1
    guard depth > maxDepth else {
      for name in path {
        if name.isEmpty { throw .malformed("a group path has an empty name ('\(path.joined(separator: "/"))')") }
        try StorableText.check(name, as: "the group name '\(name)'")
      }
      return
    }
    let shown = path.prefix(3).joined(separator: "/")
    throw .tooLarge(
      "the group '\(shown)/...' is \(depth) levels deep: "
        + KDBXError.limitExceeded(
          what: "group nesting depth", value: UInt64(depth), limit: UInt64(clamping: maxDepth)
        ).description)
  }

  /// The number of distinct groups below the root that `paths` name (with the groups above them), counted as
  /// ``group(at:)`` makes them, in linear time.
  static func count(_ paths: [[String]]) -> Int {
    var index: [ChildKey: Int] = [:]
    for path in paths {
      var current = 0
      for name in path {
        let key = ChildKey(parent: current, name: name)
        if let found = index[key] {
          current = found
        } else {
          current = index.count + 1
          index[key] = current
        }
      }
    }
    return index.count
  }

  mutating func append(_ entry: Entry, to group: Int) {
    groups[group].entries.append(entry)
  }

  /// The root with every group in place. Children come after their parents, so going backwards each group is
  /// complete when it is moved into its parent.
  consuming func root() -> Group {
    for parent in groups.indices.reversed() where !children[parent].isEmpty {
      var subgroups: [Group] = []
      subgroups.reserveCapacity(children[parent].count)
      for child in children[parent] {
        subgroups.append(groups[child])
        groups[child] = Group(uuid: .zero, name: nil)
      }
      groups[parent].groups += subgroups
    }
    return groups[0]
  }
}

/// The rounds of one parallel Argon2 derivation (RFC 9106 §3.4: lanes synchronize after every slice), shared by
/// the synchronous driver and the `async` one, which differ only in how a round's items are run and awaited.
///
/// Rounds, in order: with a `prefault` hook, one that maps the first slice (``Argon2/mappingItemCount(lanes:maxConcurrency:)``);
/// one per slice (``Argon2/sliceItemCount(pass:slice:lanes:maxConcurrency:)``); one that wipes the memory in parts
/// (it writes the whole memory once more).
// SAFETY: `@unchecked` because the block memory inside `instance` is shared by the round's items, each writing
// only its own segments (the sync-point argument in Argon2+Blocks.swift); the rest is immutable after init.
struct Argon2Schedule: @unchecked Sendable {
  let instance: Argon2Instance
  let parameters: Argon2.Parameters
  let maxConcurrency: Int
  let prefault: Argon2.MemoryPrefault?
  /// Which segments were mapped and filled, when there is a `prefault` hook. SAFETY: (`@unchecked`) the record is
  /// written by one item per slot and read after the round's sync point, as in ``Argon2MappingRecord``.
  let record: Argon2MappingRecord?

  init(instance: Argon2Instance, parameters: Argon2.Parameters, maxConcurrency: Int, prefault: Argon2.MemoryPrefault?) {
    self.instance = instance
    self.parameters = parameters
    self.maxConcurrency = maxConcurrency
    self.prefault = prefault
    record = prefault == nil ? nil : Argon2MappingRecord(lanes: parameters.lanes)
  }

  var lanes: Int { parameters.lanes }
  /// The rounds before the first slice (the mapping round, with a `prefault` hook).
  var first: Int { prefault == nil ? 0 : 1 }
  var slices: Int { parameters.iterations * Argon2Geometry.syncPoints }
  var rounds: Int { first + slices + 1 }
  /// The parts the final wipe is split into.
  var parts: Int { Swift.min(maxConcurrency, lanes) }
  /// The most items any round has.
  var maxItemCount: Int { maxConcurrency > lanes ? lanes + 1 : lanes }

  /// The slice index of `round` (0..<slices), or `nil` for the mapping and wipe rounds.
  func slice(ofRound round: Int) -> Int? {
    round >= first && round - first < slices ? round - first : nil
  }

  func itemCount(_ round: Int) -> Int {
    guard round >= first else { return Argon2.mappingItemCount(lanes: lanes, maxConcurrency: maxConcurrency) }
    guard let slice = slice(ofRound: round) else { return parts }
    return Argon2.sliceItemCount(
      pass: slice / Argon2Geometry.syncPoints, slice: slice % Argon2Geometry.syncPoints, lanes: lanes,
      maxConcurrency: maxConcurrency)
  }

  func run(round: Int, item: Int) {
    guard round >= first else {
      return Argon2.runMappingItem(
        item, instance: instance, lanes: lanes, maxConcurrency: maxConcurrency, prefault, record: record)
    }
    guard let slice = slice(ofRound: round) else { return instance.wipe(part: item, of: parts) }
    Argon2.runSliceItem(
      item, instance: instance, pass: slice / Argon2Geometry.syncPoints, slice: slice % Argon2Geometry.syncPoints,
      lanes: lanes, maxConcurrency: maxConcurrency, prefault: prefault, record: record)
  }

  /// What follows every round, once all its items are done: the mapping check, the progress report (which may
  /// cancel), and after the last slice the tag, which it returns (before the wipe round clears the memory).
  // SAFETY: runs after the round's sync point (all items done), so it has the memory to itself.
  func afterRound(_ round: Int, memory: UnsafeMutableRawBufferPointer, _ progress: Argon2.ProgressHandler?)
    throws(CryptoError) -> [UInt8]?
  {
    try Argon2.checkMapping(record, memory: memory)
    guard let slice = slice(ofRound: round) else { return nil }
    try Argon2.reportSlice(
      pass: slice / Argon2Geometry.syncPoints, slice: slice % Argon2Geometry.syncPoints, totalSlices: slices,
      progress)
    return slice == slices - 1 ? Argon2.finish(instance, parameters: parameters) : nil
  }

  /// Zeroes the memory when the derivation stopped early: only what the first pass wrote when a mapping hook
  /// failed (the rest may be memory the system refused), else all of it.
  func wipeAfterFailure() {
    if let record, record.failed { instance.wipeFirstPass(record) } else { instance.wipe() }
  }
}

/// Argon2, the memory-hard password hash of RFC 9106: Argon2d, Argon2i and Argon2id, versions 1.0 and 1.3.
///
/// ```swift
/// let parameters = try Argon2.Parameters(variant: .id, iterations: 2, memoryKiB: 65536, lanes: 2)
/// let key = try Argon2.deriveKey(password: password, salt: salt, parameters: parameters)
/// // or with the lanes on parallel threads, blocking the calling thread:
/// let sameKey = try Argon2.deriveKey(password: password, salt: salt, parameters: parameters, maxConcurrency: 2)
/// ```
///
/// From async code, the lanes run as child tasks:
///
/// ```swift
/// let parameters = try Argon2.Parameters(variant: .id, iterations: 2, memoryKiB: 65536, lanes: 2)
/// let key = try await Argon2.deriveKey(password: password, salt: salt, parameters: parameters, maxConcurrency: 2)
/// ```
///
/// Memory: a derivation allocates exactly the `m'` KiB of block memory (``estimate(parameters:)``) once,
/// after checking it against a memory ceiling, and zeroes it before returning. Callers that manage memory
/// themselves (for example to back it with huge pages) pass it in with
/// ``deriveKey(password:salt:parameters:memory:maxConcurrency:prefault:progress:)``.
///
/// Drivers: one synchronous (``deriveKey(password:salt:parameters:memoryLimitBytes:maxConcurrency:progress:)``,
/// `Argon2+BlockingParallel.swift`: the calling thread and helpers, one lane after another with `maxConcurrency` 1)
/// and one `async` (`Argon2+Parallel.swift`); both run the rounds of ``Argon2Schedule``.
///
/// The allocation uses the standard library's allocator, which cannot report failure: when the system cannot
/// supply the memory, the process stops ("failed to allocate"). That can only happen when the ceiling passed is
/// larger than the memory the process can get, so pass a ceiling no larger than that (what the system reports
/// available, a container's limit). A caller that maps the memory itself can refuse cleanly instead: the
/// caller-memory entry points never allocate, and their `prefault` hook can report pages the system refused.
///
/// Side channels: Argon2d and the second half of Argon2id's first pass read memory at addresses that
/// depend on the password; that is by design (RFC 9106 §4) and not constant-time.
public enum Argon2 {
  /// The default memory ceiling: 1 GiB.
  public static let defaultMemoryLimitBytes = 1 << 30

  /// How far a derivation has got. Reported after every slice: every lane has finished one more segment
  /// (RFC 9106 §3.4: a pass is four slices, and lanes synchronize between slices).
  public struct Progress: Sendable, Equatable {
    /// The pass just worked on, 0..<iterations.
    public let pass: Int
    /// The slice just finished in that pass, 0..<4.
    public let slice: Int
    /// Slices finished so far, 1...totalSlices.
    public let completedSlices: Int
    /// Slices in the whole derivation: 4 * iterations.
    public let totalSlices: Int

    /// The fraction of the work done, 0...1.
    public var fractionCompleted: Double { Double(completedSlices) / Double(totalSlices) }
  }

  /// A progress observer. It is called after every slice; returning `false` cancels the derivation, which
  /// then throws ``CryptoError/cancelled`` without starting another segment.
  public typealias ProgressHandler = (Progress) -> Bool

  // MARK: - Shared steps

  /// Checks the inputs and the memory ceiling; returns the cost of the run.
  static func checkedCost(password: [UInt8], salt: [UInt8], parameters: Parameters, limit: Int) throws(CryptoError)
    -> Cost
  {
    try checkInputs(password: password, salt: salt)
    let cost = estimate(parameters: parameters)
    guard cost.memoryByteCount <= limit else {
      throw CryptoError.memoryLimitExceeded(requiredBytes: cost.memoryByteCount, limitBytes: limit)
    }
    // The tag is allocated too; T may be up to 2^32-1 bytes (RFC 9106 §3.1).
    guard parameters.outputLength <= limit else {
      throw CryptoError.memoryLimitExceeded(requiredBytes: parameters.outputLength, limitBytes: limit)
    }
    return cost
  }

  /// RFC 9106 §3.1: the password is at most 2^32-1 bytes, the salt 8...2^32-1 bytes.
  static func checkInputs(password: [UInt8], salt: [UInt8]) throws(CryptoError) {
    guard fitsUInt32(password.count, minimum: 0) else {
      throw CryptoError.invalidParameter(name: "P", reason: "Argon2 password must be at most 2^32-1 bytes")
    }
    guard fitsUInt32(salt.count, minimum: 8) else {
      throw CryptoError.invalidParameter(name: "S", reason: "Argon2 salt must be 8...2^32-1 bytes")
    }
  }

  // SAFETY: this is the check that makes caller memory usable: count >= estimate(parameters:) bytes (every
  // block index the geometry makes lies below it) and a 16-byte-aligned base for the blocks' UInt64/SIMD stores.
  static func checkCallerMemory(
    _ memory: UnsafeMutableRawBufferPointer, password: [UInt8], salt: [UInt8], parameters: Parameters
  ) throws(CryptoError) {
    try checkInputs(password: password, salt: salt)
    let cost = estimate(parameters: parameters)
    guard memory.count >= cost.memoryByteCount, let start = memory.baseAddress else {
      throw CryptoError.invalidParameter(
        name: "memory", reason: "caller memory holds fewer bytes than Argon2.estimate(parameters:) requires")
    }
    guard Int(bitPattern: start) % 16 == 0 else {
      throw CryptoError.invalidParameter(name: "memory", reason: "caller memory must be 16-byte aligned")
    }
  }

  /// Allocates the block memory: exactly `byteCount` bytes, once, left untouched until the first pass
  /// writes it (so the pages are faulted in as they are filled).
  // SAFETY: the owner (the memoryLimitBytes deriveKey) zeroes and deallocates it after the wipe round;
  // 4096-byte alignment satisfies the 16 the block stores need.
  static func allocateBlocks(byteCount: Int) -> UnsafeMutableRawBufferPointer {
    // Page alignment keeps every 1 KiB block inside one 4 KiB page: one TLB entry per reference block.
    UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 4096)
  }

  /// RFC 9106 §3.2 steps 1-4: H0 and the first two blocks of every lane.
  // SAFETY: `memory` has passed checkCallerMemory or came from allocateBlocks with estimate's byte count, so
  // Argon2Instance's block indices (lane * laneLength + column < lanes * laneLength) stay inside it.
  static func start(password: [UInt8], salt: [UInt8], parameters: Parameters, memory: UnsafeMutableRawBufferPointer)
    -> Argon2Instance
  {
    let cost = estimate(parameters: parameters)
    let geometry = Argon2Geometry(
      lanes: parameters.lanes, laneLength: cost.laneLength, segmentLength: cost.segmentLength)
    let instance = Argon2Instance(memory: memory, geometry: geometry, parameters: parameters)
    let h0 = preHash(password: password, salt: salt, parameters: parameters)
    for lane in 0..<parameters.lanes {
      for column in 0..<2 {
        var input = h0
        appendLE32(&input, column)
        appendLE32(&input, lane)
        instance.store(
          variableLengthHash(input, outputByteCount: 1024), at: lane * geometry.laneLength + column)
      }
    }
    return instance
  }

  /// RFC 9106 §3.2 step 7: the tag `H'^T(C)`.
  static func finish(_ instance: Argon2Instance, parameters: Parameters) -> [UInt8] {
    variableLengthHash(instance.finalBlockBytes(), outputByteCount: parameters.outputLength)
  }

  static func appendLE32(_ bytes: inout [UInt8], _ value: Int) {
    let word = UInt32(truncatingIfNeeded: value)
    for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
  }
}

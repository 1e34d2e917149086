import KDBXCrypto
import Testing
import VectorSupport

@Suite("Argon2 properties")
struct Argon2PropertyTests {
  /// Random parameters: every variant and version, 1-8 lanes, small memory, 1-3 passes, any tag length.
  static func randomCase(_ random: inout SplitMix64) throws -> (Argon2.Parameters, [UInt8], [UInt8]) {
    let lanes = Int(random.next() % 8) + 1
    let parameters = try Argon2.Parameters(
      variant: Argon2.Variant.allCases[Int(random.next() % 3)],
      version: Argon2.Version.allCases[Int(random.next() % 2)], iterations: Int(random.next() % 3) + 1,
      memoryKiB: 8 * lanes + Int(random.next() % 200), lanes: lanes, outputLength: Int(random.next() % 100) + 4,
      secret: random.bytes(Int(random.next() % 3) * 8), associatedData: random.bytes(Int(random.next() % 2) * 5))
    return (parameters, random.bytes(Int(random.next() % 20)), random.bytes(8 + Int(random.next() % 16)))
  }

  @Test("parallel lanes equal sequential lanes", arguments: 0..<12)
  func parallelEqualsSequential(_ seed: Int) async throws {
    var random = SplitMix64(seed: UInt64(seed) &* 0x1234_5678_9abc)
    let (parameters, password, salt) = try Self.randomCase(&random)
    let sequential = try Argon2.deriveKey(password: password, salt: salt, parameters: parameters)
    #expect(sequential.count == parameters.outputLength)
    for workers in [2, 3, parameters.lanes + 1] {
      let parallel = try await Argon2.deriveKey(
        password: password, salt: salt, parameters: parameters, maxConcurrency: workers)
      #expect(parallel == sequential, "maxConcurrency \(workers), \(parameters)")
    }
  }

  @Test("blocking parallel lanes equal sequential lanes", arguments: 0..<12)
  func blockingParallelEqualsSequential(_ seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed) &* 0x9abc_def0_1234)
    let (parameters, password, salt) = try Self.randomCase(&random)
    let sequential = try Argon2.deriveKey(password: password, salt: salt, parameters: parameters)
    for workers in [1, 2, 3, parameters.lanes + 1] {
      var slices = 0
      let parallel = try Argon2.deriveKey(
        password: password, salt: salt, parameters: parameters, maxConcurrency: workers,
        progress: { _ in
          slices += 1
          return true
        })
      #expect(parallel == sequential, "maxConcurrency \(workers), \(parameters)")
      #expect(slices == 4 * parameters.iterations)
    }
  }

  @Test("blocking parallel derivation stops when progress returns false")
  func blockingParallelCancels() throws {
    let parameters = try Argon2.Parameters(iterations: 2, memoryKiB: 64, lanes: 2)
    var calls = 0
    #expect(throws: CryptoError.cancelled) {
      try Argon2.deriveKey(
        password: [1], salt: Array("somesalt".utf8), parameters: parameters, maxConcurrency: 2,
        progress: { _ in
          calls += 1
          return calls < 3
        })
    }
    #expect(calls == 3)
    #expect(throws: CryptoError.self) {
      try Argon2.deriveKey(
        password: [1], salt: Array("somesalt".utf8), parameters: parameters, maxConcurrency: 0)
    }
  }

  @Test("every input changes the tag")
  func inputsMatter() throws {
    let base = try Argon2.Parameters(iterations: 1, memoryKiB: 32, lanes: 1)
    let password = Array("password".utf8)
    let salt = Array("somesalt".utf8)
    let tag = try Argon2.deriveKey(password: password, salt: salt, parameters: base)
    let variations: [Argon2.Parameters] = [
      try Argon2.Parameters(variant: .d, iterations: 1, memoryKiB: 32, lanes: 1),
      try Argon2.Parameters(version: .v0x10, iterations: 2, memoryKiB: 32, lanes: 1),
      try Argon2.Parameters(iterations: 2, memoryKiB: 32, lanes: 1),
      try Argon2.Parameters(iterations: 1, memoryKiB: 33, lanes: 1),
      try Argon2.Parameters(iterations: 1, memoryKiB: 32, lanes: 2),
      try Argon2.Parameters(iterations: 1, memoryKiB: 32, lanes: 1, secret: [0]),
      try Argon2.Parameters(iterations: 1, memoryKiB: 32, lanes: 1, associatedData: [0]),
    ]
    for parameters in variations {
      #expect(try Argon2.deriveKey(password: password, salt: salt, parameters: parameters) != tag)
    }
    #expect(try Argon2.deriveKey(password: password + [0], salt: salt, parameters: base) != tag)
    #expect(try Argon2.deriveKey(password: password, salt: salt + [0], parameters: base) != tag)
    let longer = try Argon2.Parameters(iterations: 1, memoryKiB: 32, lanes: 1, outputLength: 64)
    #expect(try Argon2.deriveKey(password: password, salt: salt, parameters: longer).prefix(32) != tag[...])
  }
}

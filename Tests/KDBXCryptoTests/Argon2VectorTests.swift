import KDBXCrypto
import Testing
import VectorSupport

/// Builds the parameters of an Argon2 vector record.
func argon2Parameters(_ record: VectorRecord) throws -> Argon2.Parameters {
  let variants: [String: Argon2.Variant] = ["d": .d, "i": .i, "id": .id]
  let variant = try #require(variants[record.string("variant")])
  let version = try #require(Argon2.Version(rawValue: UInt32(record.int("version"))))
  return try Argon2.Parameters(
    variant: variant, version: version, iterations: record.int("iterations"), memoryKiB: record.int("memory"),
    lanes: record.int("lanes"), outputLength: record.bytes("tag").count, secret: record.bytes("secret"),
    associatedData: record.bytes("ad"))
}

@Suite("Argon2 vectors")
struct Argon2VectorTests {
  @Test("RFC 9106 §5", arguments: Vectors.records("argon2/rfc9106-section5.vec"))
  func rfc9106(_ record: VectorRecord) async throws {
    let parameters = try argon2Parameters(record)
    let password = record.bytes("password")
    let salt = record.bytes("salt")
    let sequential = try Argon2.deriveKey(password: password, salt: salt, parameters: parameters)
    #expect(sequential == record.bytes("tag"))
    let parallel = try await Argon2.deriveKey(
      password: password, salt: salt, parameters: parameters, maxConcurrency: parameters.lanes)
    #expect(parallel == record.bytes("tag"))
    #expect(try blockingDerivation(password: password, salt: salt, parameters: parameters) == record.bytes("tag"))
  }

  /// The synchronous parallel entry point (an `async` caller would get the `async` overload).
  func blockingDerivation(password: [UInt8], salt: [UInt8], parameters: Argon2.Parameters) throws -> [UInt8] {
    try Argon2.deriveKey(password: password, salt: salt, parameters: parameters, maxConcurrency: parameters.lanes + 1)
  }

  @Test("argon2-cffi light cases", arguments: Vectors.records("argon2/argon2-cffi.vec"))
  func argon2CFFI(_ record: VectorRecord) async throws {
    let parameters = try argon2Parameters(record)
    let tag = try await Argon2.deriveKey(
      password: record.bytes("password"), salt: record.bytes("salt"), parameters: parameters, maxConcurrency: 2)
    #expect(tag == record.bytes("tag"))
  }

  @Test("argon2-cffi large cases (8-64 MiB)", arguments: Vectors.records("argon2/argon2-cffi-large.vec"))
  func argon2CFFILarge(_ record: VectorRecord) async throws {
    let parameters = try argon2Parameters(record)
    let tag = try await Argon2.deriveKey(
      password: record.bytes("password"), salt: record.bytes("salt"), parameters: parameters, maxConcurrency: 2)
    #expect(tag == record.bytes("tag"))
  }
}

import Foundation
import Testing

/// `kdbx calibrate` and `--decryption-time` on `create` and `convert`: outputs, bounds and exit statuses. Timing
/// itself is never asserted (the machine may be loaded); the costs are checked against their minimums and against
/// what the created files record.
@Suite(.enabled(if: CLI.available))
struct CLICalibrationTests {
  static func scratchDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kdbx-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func calibrateArgon2() throws {
    let text = try CLI.run(["calibrate", "--target-ms", "100", "--memory", "1", "--parallelism", "1"])
    #expect(text.status == 0, "\(text.err)")
    #expect(text.out.hasPrefix("Argon2id, 1 MiB, parallelism 1: "))
    #expect(text.out.contains("Memory:          1 MiB\n"))
    #expect(text.out.contains("--kdf argon2id --memory 1 --parallelism 1 --iterations "))
    let result = try CLI.run(
      ["calibrate", "--target-ms", "100", "--kdf", "argon2d", "--memory", "2", "--parallelism", "2", "--json"])
    #expect(result.status == 0, "\(result.err)")
    let object = try Self.json(result.out)
    #expect(object["kdf"] as? String == "argon2d")
    #expect((object["iterations"] as? Int ?? 0) >= 1)
    #expect(object["memoryBytes"] as? Int == 2 << 20)
    #expect(object["parallelism"] as? Int == 2)
    #expect(object["targetMilliseconds"] as? Int == 100)
    #expect((object["estimatedMilliseconds"] as? Int ?? -1) >= 0)
  }

  @Test func calibrateAESKDF() throws {
    let result = try CLI.run(["calibrate", "--target-ms", "100", "--kdf", "aes-kdf", "--json"])
    #expect(result.status == 0, "\(result.err)")
    let object = try Self.json(result.out)
    #expect((object["rounds"] as? Int ?? 0) >= 10_000)
    #expect(object["memoryBytes"] as? Int == 0)
    #expect(object["threads"] as? Int == 1)
  }

  @Test(arguments: [
    (["calibrate", "--target-ms", "99"], "--target-ms needs a whole number from 100 to 5000"),
    (["calibrate", "--target-ms", "5001"], "--target-ms needs a whole number from 100 to 5000"),
    (["calibrate", "--target-ms", "soon"], "not 'soon'"),
    (["calibrate", "--memory", "64"], "--target-ms MS is required"),
    (["calibrate", "--target-ms", "100", "--kdf", "aes-kdf", "--parallelism", "2"], "Argon2 only"),
    (["calibrate", "--target-ms", "100", "--kdf", "scrypt"], "--kdf must be argon2id, argon2d or aes-kdf"),
    (["calibrate", "--target-ms", "100", "vault.kdbx"], "unexpected argument"),
  ])
  func calibrateRefusesBadArguments(_ arguments: [String], _ message: String) throws {
    let result = try CLI.run(arguments)
    #expect(result.status == 1)
    #expect(result.err.contains(message), "\(result.err)")
    #expect(result.out.isEmpty)
  }

  @Test func createWithDecryptionTime() throws {
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let aes = directory.appendingPathComponent("aes.kdbx").path
    let created = try CLI.run(
      ["create", aes, "--format", "3.1", "--kdf", "aes-kdf", "--decryption-time", "100"], input: "pw\n")
    #expect(created.status == 0, "\(created.err)")
    #expect(created.out.hasPrefix("Calibrated AES-KDF: "), "\(created.out)")
    let info = try Self.json(try CLI.run(["info", aes, "--json"], input: "pw\n").out)
    let rounds = (info["kdf"] as? [String: Any])?["rounds"] as? Int
    #expect((rounds ?? 0) >= 10_000, "\(info)")
    #expect(created.out.contains("Calibrated AES-KDF: \(rounds ?? -1) rounds"))

    let argon = directory.appendingPathComponent("argon.kdbx").path
    let made = try CLI.run(
      ["create", argon, "--memory", "1", "--parallelism", "1", "--decryption-time", "100"], input: "pw\n")
    #expect(made.status == 0, "\(made.err)")
    let argonInfo = try CLI.run(["info", argon], input: "pw\n")
    #expect(argonInfo.out.contains("memoryKiB 1024, parallelism 1"), "\(argonInfo.out)")
  }

  @Test(arguments: [["--iterations", "2"], ["--rounds", "1000"]])
  func decryptionTimeExcludesExplicitCost(_ explicit: [String]) throws {
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("x.kdbx").path
    let created = try CLI.run(["create", path, "--decryption-time", "100"] + explicit, input: "pw\n")
    #expect(created.status == 1)
    #expect(created.err.contains("not both"), "\(created.err)")
    #expect(!FileManager.default.fileExists(atPath: path))
    let converted = try CLI.run(
      ["convert", CLI.fixture, path, "--decryption-time", "100"] + explicit, input: "fixture\n")
    #expect(converted.status == 1)
    #expect(converted.err.contains("not both"), "\(converted.err)")
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func convertWithDecryptionTimeKeepsTheKDF() throws {
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("converted.kdbx").path
    let converted = try CLI.run(["convert", CLI.fixture, path, "--decryption-time", "100"], input: "fixture\n")
    #expect(converted.status == 0, "\(converted.err)")
    #expect(converted.out.hasPrefix("Calibrated AES-KDF: "), "\(converted.out)")
    let info = try CLI.run(["info", path, "--json"], input: "fixture\n")
    #expect(info.status == 0, "\(info.err)")
    let object = try Self.json(info.out)
    let kdf = object["kdf"] as? [String: Any]
    #expect(kdf?["name"] as? String == "AES-KDF")
    #expect((kdf?["rounds"] as? Int ?? 0) >= 10_000)
  }
}

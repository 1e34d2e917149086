import KDBX
import Testing

/// The hostile-vault suite (issue #19, acceptance): files with valid cryptography and hostile KDF costs, each run
/// through `kdbx` by `HostileVaultHarness`, which checks a clean exit 1 or 2 with a message, no signal, peak memory
/// and time within the bounds stated here. Add cases in a file of your own with the same harness.
@Suite("Hostile vaults: KDF costs", .enabled(if: HostileVaultHarness.available), .timeLimit(.minutes(5)))
struct HostileVaultTests {
  /// 2 GiB of address space stands for a small machine (`ulimit -v`; a container's limit is read the same way).
  static let smallMachineKiB = 2 << 20

  /// Item 6: Argon2 memory of 4 GiB (within the 4 GiB cap) on a machine with less. Before: "Fatal error: failed to
  /// allocate 4294967296 bytes" and SIGABRT, before the password was checked.
  @Test func argon2MemoryTheMachineDoesNotHave() throws {
    let file = try HostileVaultFile.sealed(kdf: HostileVaultFile.argon2(memoryBytes: 4 << 30, iterations: 1))
    for command in [["ls", "{FILE}"], ["show", "{FILE}", "Entry"], ["verify", "{FILE}"]] {
      try HostileVaultHarness.check(
        HostileCase(
          name: "\(command[0]) with Argon2 4 GiB under ulimit -v 2 GiB", file: file, arguments: command,
          allowedStatuses: [1], message: "cannot reserve 4 GiB for the key derivation; this machine has",
          maxResidentMiB: 64, timeoutSeconds: 60, addressSpaceLimitKiB: Self.smallMachineKiB))
    }
  }

  /// Item 6: `kdbx create --memory 4096` on the same small machine fails the same clean way, before any password.
  @Test func createWithMemoryTheMachineDoesNotHave() throws {
    try HostileVaultHarness.check(
      HostileCase(
        name: "create --memory 4096 under ulimit -v 2 GiB", file: [],
        arguments: ["create", "{DIR}/new.kdbx", "--memory", "4096", "--iterations", "1"], input: "new password\n",
        allowedStatuses: [1], message: "cannot reserve 4 GiB for the key derivation; this machine has",
        maxResidentMiB: 64, timeoutSeconds: 60, addressSpaceLimitKiB: Self.smallMachineKiB))
  }

  /// Item 7: Argon2 with 1 MiB and a million iterations (each within its own limit) took minutes; AES-KDF with
  /// 999,999,999 rounds about 140 s. Both are refused at once, with the time they would take here.
  @Test(arguments: [
    (
      "Argon2 1 MiB x 1,000,000", HostileVaultFile.argon2(memoryBytes: 1 << 20, iterations: 1_000_000), KDBXVersion.v4_0
    ),
    ("AES-KDF 999,999,999 rounds (KDBX 4)", HostileVaultFile.aesKDF(rounds: 999_999_999), .v4_0),
    ("AES-KDF 999,999,999 rounds (KDBX 3.1)", HostileVaultFile.aesKDF(rounds: 999_999_999, version: .v3_1), .v3_1),
  ])
  func kdfWorkOverTheCap(_ name: String, _ kdf: KDFParameters, _ version: KDBXVersion) throws {
    let file = try HostileVaultFile.sealed(kdf: kdf, version: version)
    let outcome = try HostileVaultHarness.check(
      HostileCase(
        name: name, file: file, arguments: ["ls", "{FILE}"], allowedStatuses: [1],
        message: "key derivation would take about ", maxResidentMiB: 64, timeoutSeconds: 60))
    #expect(outcome.err.contains("on this machine"))
    #expect(outcome.err.contains("pass --max-kdf-seconds to allow it"))
  }

  /// `--max-kdf-seconds` is a time cap: below the estimate the file is refused the same way.
  @Test func maxKDFSecondsBelowTheEstimateRefuses() throws {
    let file = try HostileVaultFile.sealed(kdf: HostileVaultFile.aesKDF(rounds: 999_999_999))
    try HostileVaultHarness.check(
      HostileCase(
        name: "AES-KDF 999,999,999 rounds with --max-kdf-seconds 1", file: file,
        arguments: ["ls", "{FILE}", "--max-kdf-seconds", "1"], allowedStatuses: [1],
        message: "more than --max-kdf-seconds 1", maxResidentMiB: 64, timeoutSeconds: 60))
  }

  /// Within the cap nothing changes: a sealed file (no password derives its key) runs its KDF and ends with "wrong
  /// password" (exit 2), under the same bounds.
  @Test func aModerateSealedFileRunsItsKDFAndSaysWrongPassword() throws {
    let file = try HostileVaultFile.sealed(kdf: HostileVaultFile.argon2(memoryBytes: 1 << 20, iterations: 2))
    try HostileVaultHarness.check(
      HostileCase(
        name: "Argon2 1 MiB x 2, sealed", file: file, arguments: ["ls", "{FILE}", "--max-kdf-seconds", "600"],
        allowedStatuses: [2], message: "wrong password or key file", maxResidentMiB: 64, timeoutSeconds: 60))
  }

  /// With `--max-kdf-seconds` large enough, a moderate-cost file opens (and without it, as it is within the caps).
  @Test func aModerateFileOpensWithMaxKDFSeconds() throws {
    let directory = try HostileVaultHarness.temporaryDirectory()
    defer { HostileVaultHarness.removeDirectory(directory) }
    let path = directory + "/moderate.kdbx"
    let kdf = HostileVaultFile.aesKDF(rounds: 200_000)
    let bytes = try KDBXFile.saveBlocking(
      HostileVaultFile.smallDatabase(), key: CompositeKey(password: "moderate"),
      settings: SaveSettings(version: .v4_0, kdf: kdf))
    try HostileVaultHarness.writeFile(bytes, to: path)
    for extra in [["--max-kdf-seconds", "600"], []] {
      let outcome = try HostileVaultHarness.runKDBX(
        ["ls", path] + extra, input: "moderate\n", timeoutSeconds: 120)
      #expect(outcome.status == 0, "\(outcome.summary)")
      #expect(outcome.out == "Entry\n")
    }
  }
}

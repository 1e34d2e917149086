import KDBX
import KDBXBase

/// `kdbx calibrate --target-ms MS [--memory MiB] [--parallelism N] [--kdf ...] [--json]`: the KDF cost that makes
/// unlocking take MS milliseconds on this machine. No vault needed.
enum CalibrateCommand {
  static let command = Command(
    name: "calibrate", arguments: "",
    summary:
      "The Argon2 iterations or AES-KDF rounds for a decryption time on this machine (--target-ms MS, --memory MiB, --parallelism N, --kdf, --json).",
    section: .noVault,
    details: """
      Measures the key derivation on this machine and prints the Argon2 iterations (or AES-KDF rounds) that
      make unlocking take about MS milliseconds (100 to 5000, as KeePassXC allows), with the estimated time
      and the memory used. Argon2 uses the memory and parallelism given (defaults: 64 MiB, 2) and at
      least 1 iteration; its lanes run on up to as many cores as there are lanes. AES-KDF runs on one thread,
      needs no work memory and gets at least 10000 rounds. 'kdbx create --decryption-time MS' does the same.
      """,
    options: [
      OptionSpec(["--target-ms"], value: "MS", "The decryption time to aim for, 100 to 5000 ms (required)."),
      OptionSpec(["--memory"], value: "MiB", "Argon2 memory in MiB (default 64)."),
      OptionSpec(["--parallelism"], value: "N", "Argon2 lanes (default 2)."),
      OptionSpec(
        ["--kdf"], value: "KDF", choices: ["argon2id", "argon2d", "aes-kdf"],
        "The key derivation function (default argon2id)."), CommandTable.json,
    ],
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let json = arguments.flag("--json")
    guard let milliseconds = try arguments.integer("--target-ms", in: Calibration.targetRange) else {
      throw .usage("--target-ms MS is required")
    }
    let target = Duration.milliseconds(milliseconds)
    let kdf = arguments.value("--kdf") ?? "argon2id"
    let memory = try arguments.integer("--memory", in: 1...4_096)
    let parallelism = try arguments.integer("--parallelism", in: 1...64)
    try arguments.finish(maxPositionals: 0)

    let result: Calibration.Outcome
    var fields: [(String, JSONValue)] = [("kdf", .string(kdf)), ("targetMilliseconds", .number(milliseconds))]
    var lines: [String] = []
    switch kdf {
    case "argon2id", "argon2d":
      let memoryMiB = memory ?? 64
      let lanes = parallelism ?? 2
      result = try Calibration.argon2(
        variant: kdf == "argon2d" ? .d : .id, memoryMiB: memoryMiB, lanes: lanes, target: target)
      let name = kdf == "argon2d" ? "Argon2d" : "Argon2id"
      fields += [
        ("iterations", .number(Int(clamping: result.cost))), ("memoryMiB", .number(memoryMiB)),
        ("memoryBytes", .number(memoryMiB << 20)), ("parallelism", .number(lanes)),
      ]
      lines = [
        "\(name), \(memoryMiB) MiB, parallelism \(lanes): \(result.cost) iteration\(result.cost == 1 ? "" : "s")",
        "Estimated time:  \(Calibration.milliseconds(result.estimated)) ms (target \(milliseconds) ms, "
          + "\(result.threads) thread\(result.threads == 1 ? "" : "s"))",
        "Memory:          \(memoryMiB) MiB",
        "Use:             kdbx create FILE --kdf \(kdf) --memory \(memoryMiB) --parallelism \(lanes) "
          + "--iterations \(result.cost)",
      ]
    case "aes-kdf":
      if memory != nil || parallelism != nil { throw .usage("--memory and --parallelism apply to Argon2 only") }
      result = try Calibration.aesKDF(target: target)
      fields += [("rounds", .number(Int(clamping: result.cost))), ("memoryBytes", .number(0))]
      lines = [
        "AES-KDF: \(result.cost) rounds",
        "Estimated time:  \(Calibration.milliseconds(result.estimated)) ms (target \(milliseconds) ms, 1 thread)",
        "Memory:          none (AES-KDF needs no work memory)",
        "Use:             kdbx create FILE --kdf aes-kdf --rounds \(result.cost)",
      ]
    default:
      throw .usage("--kdf must be argon2id, argon2d or aes-kdf, not '\(kdf)'")
    }
    fields += [
      ("estimatedMilliseconds", .number(Calibration.milliseconds(result.estimated))),
      ("threads", .number(result.threads)),
    ]
    if json {
      Terminal.out(JSONValue.object(fields).rendered() + "\n")
    } else {
      Terminal.out(lines.joined(separator: "\n") + "\n")
    }
  }
}

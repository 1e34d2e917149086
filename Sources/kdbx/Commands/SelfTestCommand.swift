import KDBX
import KDBXBase
import KDBXCrypto
import KDBXFileIO

/// `kdbx selftest [--json] [--vectors DIR]`: the library's known-answer self-test (`KDBXSelfTest.run()`), and
/// optionally every `.vec` file of a vectors folder through the same primitives.
enum SelfTestCommand {
  static let command = Command(
    name: "selftest", arguments: "",
    summary: "The library's known-answer self-test, one line per check (--json; --vectors DIR runs every .vec file "
      + "of Vectors/ too).",
    section: .noVault,
    details: """
      Runs the known-answer self-test compiled into the library, the one an app runs at start-up: SHA-1/256/512,
      HMAC, AES-256 (table and constant-time kernels), CBC, Twofish, ChaCha20, Salsa20, BLAKE2b, Argon2d/i/id,
      AES-KDF, CRC-32, inflate, deflate, the XML reader and writer, and a whole KDBX 4 open of a tiny vault, each
      against a published vector (RFC, NIST, KeePass files kept in Vectors/), and every fast kernel against the
      library's reference path on fixed pseudo-random input. One line per check: 'ok NAME SOURCE', or
      'FAIL NAME SOURCE' with the expected and actual value. No vault, no password, no files needed.
      Exit status 0 when everything passed, 1 otherwise (do not trust this build with a vault then).
      """,
    options: [
      OptionSpec(
        ["--vectors"], value: "DIR", path: true,
        "Also run every .vec file under DIR (the repository's Vectors/ folder) through the same primitives and "
          + "print the record count of each file: a full verification with nothing but this binary and the vector "
          + "files."),
      OptionSpec(
        ["--corpus"], value: "DIR", path: true,
        "With --vectors: the acceptance corpus, for the vector files derived from it (header fields, key files); "
          + "default: ../shared/corpus or ../../shared/corpus beside the vectors folder's parent. Without it those "
          + "files are reported as skipped, as are the two that need the corpus's manifest or expected JSON "
          + "(checked by swift test)."),
      OptionSpec(
        ["--json"],
        "One JSON document: passed, milliseconds, checks [{primitive, source, passed, expected, actual, error}], and "
          + "with --vectors the files [{file, records, failed, skipped, failures}]."),
    ],
    run: run)

  /// Files that hold facts about the acceptance corpus (`../shared/corpus`), which is not part of the repository;
  /// `swift test` checks them against the corpus.
  static let corpusFiles: Set<String> = [
    "kdbx/corpus-headers.vec", "kdbx/corpus-keyfiles.vec", "kdbx/corpus-transformed-keys.vec",
    "otp/corpus-otp-codes.vec",
  ]

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let json = arguments.flag("--json")
    let vectorsFolder = arguments.value("--vectors")
    let corpusOption = arguments.value("--corpus")
    try arguments.finish(maxPositionals: 0)
    if corpusOption != nil && vectorsFolder == nil { throw .usage("--corpus goes with --vectors DIR") }

    let clock = ContinuousClock()
    let start = clock.now
    let report = KDBXSelfTest.run()
    let elapsed = start.duration(to: clock.now)
    let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3

    var lines: [String] = []
    for result in report.results {
      let name = result.primitive.padding(to: 26)
      if result.passed {
        lines.append("ok   \(name) \(result.source)")
      } else {
        let actual = result.error.map { "threw \($0)" } ?? shortened(result.actualHex)
        lines.append("FAIL \(name) \(result.source): expected \(shortened(result.expectedHex)), got \(actual)")
      }
    }
    let failed = report.failures.count
    let rounded = Double(Int(milliseconds * 10)) / 10
    if failed == 0 {
      lines.append("selftest: all \(report.results.count) checks passed in \(rounded) ms")
    } else {
      lines.append(
        "selftest: \(failed) of \(report.results.count) checks FAILED (\(report.failedPrimitives.joined(separator: ", "))); "
          + "this build computes them wrongly: do not use it with a vault")
    }
    var vectorsOK = true
    var vectorFields: [(String, JSONValue)] = []
    if let vectorsFolder {
      let outcome = try runVectors(in: vectorsFolder, corpus: try corpusFolder(corpusOption, vectors: vectorsFolder))
      vectorsOK = outcome.passed
      lines += outcome.lines
      vectorFields = outcome.json
    }
    if json {
      let document: [(String, JSONValue)] =
        [
          ("passed", .bool(report.passed && vectorsOK)), ("milliseconds", .double(rounded)),
          ("checks", report.checksJSON),
        ] + vectorFields
      Terminal.out(JSONValue.object(document).rendered() + "\n")
    } else {
      Terminal.out(lines.joined(separator: "\n") + "\n")
    }
    if !report.passed { throw .failure("the self-test failed: \(report.failedPrimitives.joined(separator: ", "))") }
    if !vectorsOK { throw .failure("vector files failed (see above)") }
  }

  static func shortened(_ hex: String) -> String {
    hex.count <= 128 ? hex : String(hex.prefix(128)) + "... (\(hex.count / 2) bytes)"
  }

  struct VectorOutcome {
    var passed: Bool
    var lines: [String]
    var json: [(String, JSONValue)]
  }

  /// Runs every `.vec` file under `folder`; a file without a runner, an unreadable file or a failed record fails.
  static func runVectors(in folder: String, corpus: String?) throws(CLIError) -> VectorOutcome {
    guard let files = vectorFiles(under: folder) else { throw .failure("cannot read the folder \(folder)") }
    guard !files.isEmpty else { throw .failure("no .vec files under \(folder)") }
    var lines: [String] = []
    var entries: [JSONValue] = []
    var totalRecords = 0
    var totalFailed = 0
    var skipped = 0
    var broken = 0
    for file in files {
      if corpusFiles.contains(file) && corpus.flatMap({ VectorRunners.corpusRunner(for: file, corpus: $0) }) == nil {
        let why =
          corpus == nil
          ? "needs the acceptance corpus (--corpus DIR)" : "needs the corpus's manifest or expected JSON (swift test)"
        skipped += 1
        lines.append("skip \(file.padding(to: 44)) \(why)")
        entries.append(.object([("file", .string(file)), ("skipped", .string(why))]))
        continue
      }
      let bytes: [UInt8]
      do {
        bytes = try FileIO.readFile(atPath: folder + "/" + file, maxByteCount: 64 << 20)
      } catch {
        broken += 1
        lines.append("FAIL \(file.padding(to: 44)) cannot be read: \(error)")
        entries.append(.object([("file", .string(file)), ("error", .string("cannot be read"))]))
        continue
      }
      let records = VectorRecord.parse(String(decoding: bytes, as: UTF8.self), file: file)
      guard let runner = runner(for: file, records: records, corpus: corpus), !records.isEmpty else {
        broken += 1
        let why = records.isEmpty ? "holds no records" : "has no runner in this kdbx version"
        lines.append("FAIL \(file.padding(to: 44)) \(why)")
        entries.append(.object([("file", .string(file)), ("error", .string(why))]))
        continue
      }
      var failures: [String] = []
      for record in records {
        do {
          try runner(record)
        } catch {
          failures.append("\(file):\(record.line): \(error.message)")
        }
      }
      totalRecords += records.count
      totalFailed += failures.count
      let count = "\(records.count) record\(records.count == 1 ? "" : "s")"
      if failures.isEmpty {
        lines.append("ok   \(file.padding(to: 44)) \(count)")
      } else {
        lines.append("FAIL \(file.padding(to: 44)) \(failures.count) of \(count) failed")
        lines += failures.prefix(5).map { "       \($0)" }
      }
      entries.append(
        .object([
          ("file", .string(file)), ("records", .number(records.count)), ("failed", .number(failures.count)),
          ("failures", .array(failures.prefix(20).map { .string($0) })),
        ]))
    }
    let passed = totalFailed == 0 && broken == 0
    lines.append(
      "vectors: \(files.count) files, \(totalRecords) records, \(totalFailed) failed"
        + (broken > 0 ? ", \(broken) files not run" : "") + (skipped > 0 ? ", \(skipped) files skipped" : ""))
    return VectorOutcome(
      passed: passed, lines: lines,
      json: [
        (
          "vectors",
          .object([
            ("files", .array(entries)), ("records", .number(totalRecords)), ("failed", .number(totalFailed)),
            ("notRun", .number(broken)), ("skipped", .number(skipped)),
          ])
        )
      ])
  }

  /// The corpus folder: `--corpus DIR` (which must exist), else `../shared/corpus` or `../../shared/corpus` beside
  /// the vectors folder's parent (the repository), where the tests look for it, else none.
  static func corpusFolder(_ option: String?, vectors: String) throws(CLIError) -> String? {
    if let option {
      guard FileIO.fileExists(atPath: option + "/MANIFEST.tsv") || FileIO.fileExists(atPath: option) else {
        throw .failure("the corpus folder \(option) does not exist")
      }
      return option
    }
    for candidate in [vectors + "/../../shared/corpus", vectors + "/../../../shared/corpus"]
    where FileIO.fileExists(atPath: candidate + "/MANIFEST.tsv") {
      return candidate
    }
    return nil
  }

  /// The runner for one file; some need the whole file (the zlib levels file starts with the plain text).
  static func runner(for file: String, records: [VectorRecord], corpus: String?) -> VectorRunner? {
    if let corpus, corpusFiles.contains(file) { return VectorRunners.corpusRunner(for: file, corpus: corpus) }
    if file == "deflate/rfc1951-zlib-levels.vec" {
      guard let plain = try? records.first?.bytes("plain") else { return nil }
      return { record throws(VectorMismatch) in try VectorRunners.zlibLevel(record, plain: plain) }
    }
    return VectorRunners.runner(for: file)
  }
}

extension String {
  fileprivate func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

// kdbx-bench: measures the hot paths. Usage: kdbx-bench [--list] [--json] [FILTER...]
// Prints one line per benchmark: name, median, unit, min, max, runs (tab-separated).
// Each family registers its benchmarks in its own file; this file only collects them.

var filters: [String] = []
var listOnly = false
var json = false
for argument in CommandLine.arguments.dropFirst() {
  switch argument {
  case "--list": listOnly = true
  case "--json": json = true
  case "--write-document", "--write-large-document":
    // Writes the benchmark XML document (or large_5000.kdbx's inner XML) to standard output, for comparing with
    // other tools.
    let document = argument == "--write-document" ? benchmarkDocument() : largeVaultDocument()
    if document.isEmpty { exit(1) }
    var written = 0
    while written < document.count {
      let count = document[written...].withUnsafeBytes { descriptorWrite(1, $0.baseAddress, $0.count) }
      if count <= 0 { exit(1) }
      written += count
    }
    exit(0)
  case "--derive":
    // One cold Argon2 derivation in this fresh process, the way `kdbx` unlocks a vault (lanes on every core, mapped
    // and prefaulted block memory), for whole-process timing against the argon2 CLI. Prints the in-process time;
    // with KDBX_BENCH_TRACE=1 also when each slice ended.
    let values = Array(CommandLine.arguments.drop { $0 != "--derive" }.dropFirst().prefix(4))
    guard values.count == 4, let memory = Int(values[1]), let passes = Int(values[2]), let lanes = Int(values[3])
    else {
      print("usage: kdbx-bench --derive d|id MiB ITERATIONS LANES")
      exit(1)
    }
    exit(deriveOnce(variant: values[0] == "d" ? .d : .id, mebibytes: memory, iterations: passes, lanes: lanes))
  case "--emit-signatures":
    // Signatures and PEM keys made by the library, for Vectors/tools/signature_crosscheck.py.
    let value = CommandLine.arguments.drop { $0 != "--emit-signatures" }.dropFirst().first.flatMap { Int($0) }
    exit(emitSignatures(count: value ?? 1000))
  case "--cache-key", "--autofill":
    // The AutoFill extension's path, one process each side (AutoFillProcess.swift).
    let values = Array(CommandLine.arguments.drop { $0 != argument }.dropFirst().prefix(3))
    guard values.count == 3 else {
      print("usage: kdbx-bench --cache-key VAULT PASSWORD KEYFILE | --autofill VAULT KEYFILE HOST")
      exit(1)
    }
    exit(
      argument == "--cache-key"
        ? cacheKey(vault: values[0], password: values[1], keyPath: values[2])
        : autoFill(vault: values[0], keyPath: values[1], host: values[2]))
  case _ where argument.hasPrefix("ct-"):
    // dudect-style constant-time check of signing (Welch's t-test, fixed vs random keys), optionally with the label
    // whose SHA-256 is the fixed key.
    let values = Array(CommandLine.arguments.drop { $0 != argument }.dropFirst().prefix(2))
    let samples = values.first.flatMap { Int($0) } ?? 100_000
    exit(constantTimeCheck(argument, samples: samples, label: values.count > 1 ? values[1] : "dudect fixed key"))
  case "--secret-flow":
    // Signing with a key that valgrind's memcheck sees as undefined (PublicKeyBenchmarks.swift).
    let values = Array(CommandLine.arguments.drop { $0 != argument }.dropFirst().prefix(3))
    guard values.count == 3, let count = Int(values[2]) else {
      print("usage: kdbx-bench --secret-flow p256|ed25519 LABEL COUNT")
      exit(1)
    }
    exit(secretFlowCheck(values[0], label: values[1], count: count))
  case "--help", "-h":
    print(
      "usage: kdbx-bench [--list] [--json] [--write-document] [--write-large-document] [--derive d|id MiB T P] [--emit-signatures N] [--cache-key VAULT PASSWORD KEYFILE] [--autofill VAULT KEYFILE HOST] [ct-p256|ct-p256-key|ct-p256-message|ct-p256-keygen|ct-p256-decompress|ct-p256-nonce|ct-p256-mul|ct-p256-field-inverse|ct-p256-scalar-inverse|ct-sha256|ct-ed25519 SAMPLES [LABEL]] [--secret-flow p256|ed25519 LABEL COUNT] [FILTER...]  (a FILTER is a case-insensitive substring of a name)"
    )
    exit(0)
  default: filters.append(argument.lowercased())
  }
}

// Built after the arguments are read, so that `--derive` and `--write-document` do not pay for the registrations.
let allBenchmarks: [Benchmark] =
  hashBenchmarks() + cipherBenchmarks() + kdfBenchmarks() + compressionBenchmarks() + xmlBenchmarks()
  + kdbxBenchmarks() + flatVaultBenchmarks() + mergeBenchmarks() + modelBenchmarks() + publicKeyBenchmarks()

let selected = allBenchmarks.filter { benchmark in
  filters.isEmpty || filters.contains { benchmark.name.lowercased().contains($0) }
}

if listOnly {
  for benchmark in selected { print("\(benchmark.name)\t\(benchmark.unit.label)") }
  exit(0)
}

if selected.isEmpty {
  print("kdbx-bench: no benchmark matches \(filters)")
  exit(1)
}

var results: [BenchmarkResult] = []
if !json { print("name\tmedian\tunit\tmin\tmax\truns") }
for benchmark in selected {
  let result = measure(benchmark)
  results.append(result)
  if !json {
    print(
      "\(result.name)\t\(format(result.median))\t\(result.unit)\t\(format(result.min))\t\(format(result.max))\t\(result.runs)"
    )
  }
}
if json {
  let rows = results.map { result in
    "  {\"name\": \"\(jsonEscaped(result.name))\", \"median\": \(format(result.median)), "
      + "\"unit\": \"\(jsonEscaped(result.unit))\", \"min\": \(format(result.min)), \"max\": \(format(result.max)), "
      + "\"runs\": \(result.runs)}"
  }
  print("[\n" + rows.joined(separator: ",\n") + "\n]")
}

// KDBX benchmarks. Registered in main.swift through `kdbxBenchmarks()`.

func kdbxBenchmarks() -> [Benchmark] {
  return []
}

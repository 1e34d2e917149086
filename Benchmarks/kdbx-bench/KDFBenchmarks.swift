// KDF benchmarks. Registered in main.swift through `kdfBenchmarks()`.

func kdfBenchmarks() -> [Benchmark] {
  return []
}

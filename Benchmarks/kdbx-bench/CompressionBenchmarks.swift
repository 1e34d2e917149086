// Compression benchmarks. Registered in main.swift through `compressionBenchmarks()`.

func compressionBenchmarks() -> [Benchmark] {
  return []
}

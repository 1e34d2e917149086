// XML benchmarks. Registered in main.swift through `xmlBenchmarks()`.

func xmlBenchmarks() -> [Benchmark] {
  return []
}

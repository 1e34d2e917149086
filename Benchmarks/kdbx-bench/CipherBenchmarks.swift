// Cipher benchmarks. Registered in main.swift through `cipherBenchmarks()`.

func cipherBenchmarks() -> [Benchmark] {
  return []
}

import KDBXCrypto

// Cipher and AES-KDF benchmarks. Registered in main.swift through `cipherBenchmarks()`.
//
// Anchors (see /work/shared/bench/anchors.sh): OpenSSL AES-256-CBC without AES-NI, libgcrypt and
// the Twofish reference C for CBC; OpenSSL/pycryptodome for ChaCha20 and Salsa20; portable C with
// T-tables for AES-KDF. One AES-KDF round = both 16-byte halves encrypted once.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

private let streamBytes = 16 << 20

/// Runs an async AES-KDF call to completion from the synchronous benchmark body.
private func blockingTransformConcurrently(key: [UInt8], seed: [UInt8], rounds: UInt64) -> [UInt8] {
  let box = ResultBox()
  Task.detached {
    box.value = (try? await AESKDF.transformConcurrently(key: key, seed: seed, rounds: rounds)) ?? []
    box.done.signal()
  }
  box.done.wait()
  return box.value
}

/// The result of a detached task and the signal that it is there (written before `signal`, read after `wait`).
private final class ResultBox: @unchecked Sendable {
  var value: [UInt8] = []
  let done = OneShotSignal()
}

private func cbcBenchmark<Cipher: BlockCipher>(_ name: String, _ type: Cipher.Type, decrypt: Bool) -> Benchmark {
  Benchmark(name: name, unit: .mebibytesPerSecond(bytesPerIteration: streamBytes), runs: 7) {
    var random = BenchRandom()
    var buffer = random.bytes(streamBytes)
    let key = random.bytes(32)
    let iv = random.bytes(16)
    return { iterations in
      for _ in 0..<iterations {
        do {
          var cbc = try CBC<Cipher>(key: key, iv: iv)
          if decrypt {
            try cbc.decrypt(blocksInPlace: &buffer)
          } else {
            try cbc.encrypt(blocksInPlace: &buffer)
          }
        } catch { fatalError("benchmark setup: \(error)") }
        blackHole(buffer)
      }
    }
  }
}

func cipherBenchmarks() -> [Benchmark] {
  let kdfRounds = 200_000
  return [
    cbcBenchmark("aes256-cbc-decrypt-16MiB", AES.self, decrypt: true),
    cbcBenchmark("aes256-cbc-encrypt-16MiB", AES.self, decrypt: false),
    cbcBenchmark("aes256-ct-cbc-decrypt-16MiB", ConstantTimeAES.self, decrypt: true),
    cbcBenchmark("aes256-ct-cbc-encrypt-16MiB", ConstantTimeAES.self, decrypt: false),
    cbcBenchmark("twofish-cbc-decrypt-16MiB", Twofish.self, decrypt: true),
    cbcBenchmark("twofish-cbc-encrypt-16MiB", Twofish.self, decrypt: false),
    Benchmark(name: "chacha20-16MiB", unit: .mebibytesPerSecond(bytesPerIteration: streamBytes), runs: 7) {
      var random = BenchRandom()
      var buffer = random.bytes(streamBytes)
      let key = random.bytes(32)
      let nonce = random.bytes(12)
      return { iterations in
        for _ in 0..<iterations {
          do {
            var cipher = try ChaCha20(key: key, nonce: nonce)
            try cipher.apply(to: &buffer)
          } catch { fatalError("benchmark setup: \(error)") }
          blackHole(buffer)
        }
      }
    },
    Benchmark(name: "salsa20-16MiB", unit: .mebibytesPerSecond(bytesPerIteration: streamBytes), runs: 7) {
      var random = BenchRandom()
      var buffer = random.bytes(streamBytes)
      let key = random.bytes(32)
      let nonce = random.bytes(8)
      return { iterations in
        for _ in 0..<iterations {
          do {
            var cipher = try Salsa20(key: key, nonce: nonce)
            cipher.apply(to: &buffer)
          } catch { fatalError("benchmark setup: \(error)") }
          blackHole(buffer)
        }
      }
    },
    Benchmark(name: "aes-kdf-1thread", unit: .perSecond(itemsPerIteration: kdfRounds, label: "rounds/s"), runs: 7) {
      let key = [UInt8](repeating: 1, count: 32)
      let seed = [UInt8](repeating: 2, count: 32)
      return { iterations in
        for _ in 0..<iterations {
          blackHole(try? AESKDF.transform(key: key, seed: seed, rounds: UInt64(kdfRounds)))
        }
      }
    },
    Benchmark(name: "aes-kdf-2thread", unit: .perSecond(itemsPerIteration: kdfRounds, label: "rounds/s"), runs: 7) {
      let key = [UInt8](repeating: 1, count: 32)
      let seed = [UInt8](repeating: 2, count: 32)
      return { iterations in
        for _ in 0..<iterations {
          blackHole(blockingTransformConcurrently(key: key, seed: seed, rounds: UInt64(kdfRounds)))
        }
      }
    },
    Benchmark(
      name: "aes-kdf-ct-1thread", unit: .perSecond(itemsPerIteration: kdfRounds / 4, label: "rounds/s"), runs: 7
    ) {
      let key = [UInt8](repeating: 1, count: 32)
      let seed = [UInt8](repeating: 2, count: 32)
      return { iterations in
        for _ in 0..<iterations {
          blackHole(
            try? AESKDF.transform(key: key, seed: seed, rounds: UInt64(kdfRounds / 4), implementation: .constantTime))
        }
      }
    },
  ]
}

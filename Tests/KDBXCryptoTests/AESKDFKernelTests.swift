import Testing
import VectorSupport

@testable import KDBXCrypto

/// The AES-KDF loops run on their own copies of the tables and key schedule (`AESKDFPairTables` for both halves
/// packed into 64-bit columns, `AESKDFTables` for one half); these tests hold both to the one-block reference
/// `AES.encryptBlock` for small and large round counts and random keys and blocks.
@Suite("AES-KDF kernel")
struct AESKDFKernelTests {
  static let roundCounts: [UInt64] = [0, 1, 2, 3, 4, 15, 1000]

  static func reference(_ aes: AES, _ block: SIMD16<UInt8>, rounds: UInt64) -> SIMD16<UInt8> {
    var block = block
    for _ in 0..<rounds { block = aes.encryptBlock(block) }
    return block
  }

  static func randomBlock(_ random: inout SplitMix64) -> SIMD16<UInt8> {
    var block = SIMD16<UInt8>()
    for index in 0..<16 { block[index] = UInt8(truncatingIfNeeded: random.next()) }
    return block
  }

  @Test("Both halves interleaved match the one-block reference", arguments: roundCounts)
  func pair(rounds: UInt64) throws {
    var random = SplitMix64(seed: 0x4145_534b_4446 &+ rounds)
    for _ in 0..<4 {
      let aes = try AES(key: random.bytes(32))
      let first = Self.randomBlock(&random)
      let second = Self.randomBlock(&random)
      var a = AESWords(first)
      var b = AESWords(second)
      aes.encryptRepeatedly(&a, &b, count: rounds)
      #expect(a.block == Self.reference(aes, first, rounds: rounds))
      #expect(b.block == Self.reference(aes, second, rounds: rounds))
    }
  }

  @Test("One half matches the one-block reference", arguments: roundCounts)
  func single(rounds: UInt64) throws {
    var random = SplitMix64(seed: 0x4b44_4631 &+ rounds)
    for _ in 0..<4 {
      let aes = try AES(key: random.bytes(32))
      let block = Self.randomBlock(&random)
      var half = AESWords(block)
      aes.encryptRepeatedly(&half, count: rounds)
      #expect(half.block == Self.reference(aes, block, rounds: rounds))
    }
  }
}

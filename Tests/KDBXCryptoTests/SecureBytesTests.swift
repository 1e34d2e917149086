@_spi(Testing) import KDBXCrypto
import Testing

/// Holds the allocation a `SecureBytes` hands over on release (single-threaded use within one test).
final class ReleasedAllocation: @unchecked Sendable {
  var buffer: UnsafeMutableRawBufferPointer?
}

@Suite("SecureBytes")
struct SecureBytesTests {
  /// Makes a `SecureBytes` full of `0xA5`, checks it, and lets it go before returning.
  @inline(never)
  static func makeAndRelease(count: Int, into box: ReleasedAllocation) -> Bool {
    let secret = SecureBytes([UInt8](repeating: 0xA5, count: count), releaseObserver: { box.buffer = $0 })
    return secret.count == count && secret.bytes.allSatisfy { $0 == 0xA5 }
  }

  @Test(arguments: [1, 32, 64, 1000])
  func storageIsZeroAfterRelease(count: Int) throws {
    let box = ReleasedAllocation()
    #expect(Self.makeAndRelease(count: count, into: box))
    let released = try #require(box.buffer, "the release observer was not called")
    defer { released.deallocate() }
    #expect(released.count >= count)
    // Read the released storage through the raw pointer: every byte the secret held is now zero.
    #expect(released.allSatisfy { $0 == 0 })
  }

  @Test func emptyKeyReleases() throws {
    let box = ReleasedAllocation()
    #expect(Self.makeAndRelease(count: 0, into: box))
    let released = try #require(box.buffer)
    released.deallocate()
  }

  @Test func bytesRoundTrip() {
    let secret = SecureBytes([1, 2, 3, 250])
    #expect(secret.count == 4)
    #expect(secret.bytes == [1, 2, 3, 250])
    #expect(secret.withUnsafeBytes { Array($0) } == [1, 2, 3, 250])
    #expect(secret.hasSameBytes(as: SecureBytes([1, 2, 3, 250])))
    #expect(!secret.hasSameBytes(as: SecureBytes([1, 2, 3, 251])))
    #expect(!secret.hasSameBytes(as: SecureBytes([1, 2, 3])))
    let written = SecureBytes(count: 3) { $0.copyBytes(from: [7, 8, 9]) }
    #expect(written.bytes == [7, 8, 9])
  }

  @Test func consumingInitZeroesTheSource() {
    var source: [UInt8] = [9, 8, 7, 6, 5]
    let secret = SecureBytes(consuming: &source)
    #expect(source == [0, 0, 0, 0, 0])
    #expect(secret.bytes == [9, 8, 7, 6, 5])
  }

  @Test func wipeZeroesAUniqueArrayInPlace() {
    var bytes = [UInt8](repeating: 0x5C, count: 48)
    let before = bytes.withUnsafeBufferPointer { $0.baseAddress }
    SecureBytes.wipe(&bytes)
    #expect(bytes.allSatisfy { $0 == 0 })
    #expect(bytes.count == 48)
    #expect(bytes.withUnsafeBufferPointer { $0.baseAddress } == before)  // the same storage, not a copy
  }
}

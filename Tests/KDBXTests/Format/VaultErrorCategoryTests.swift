import KDBXCompression
import KDBXCrypto
import KDBXXML
import Testing

@testable import KDBX

/// Every error case a vault operation throws maps to the alert an app shows (issue #35, item 7), and real failures
/// land in the category a user expects.
@Suite struct VaultErrorCategoryTests {
  /// One row per case of ``KDBXError`` (and per wrapped kind that changes the answer).
  static let kdbxTable: [(KDBXError, VaultErrorCategory)] = [
    (.invalidCredentials, .wrongKey),
    (.invalidKeyFile(reason: "empty"), .wrongKey),
    (.cachedKeyIsStale, .staleCachedKey),
    (.invalidCachedKey(reason: "truncated"), .staleCachedKey),
    (.notKeePassFile, .damaged),
    (.truncated(offset: 12, needed: 4), .damaged),
    (.malformedHeader(field: "CipherID", reason: "size"), .damaged),
    (.malformedInnerHeader(field: "Binary", reason: "size"), .damaged),
    (.malformedVariantDictionary(offset: 3, reason: "type"), .damaged),
    (.headerChecksumMismatch, .damaged),
    (.headerHashMismatch, .damaged),
    (.corruptedBlock(index: 2), .damaged),
    (.malformedValue(element: "Times", reason: "date"), .damaged),
    (.malformedDocument(path: "KeePassFile", reason: "no Root"), .damaged),
    (.damagedContent(reason: "content hash"), .damaged),
    (.malformedRecord(offset: 9, reason: "field size"), .damaged),
    (.unsupportedKDB1, .unsupported),
    (.unsupportedPreReleaseFormat, .unsupported),
    (.unsupportedVersion(major: 5, minor: 0), .unsupported),
    (.unsupportedCipher(uuid: "00"), .unsupported),
    (.unsupportedKDF(uuid: "00"), .unsupported),
    (.unsupportedInnerRandomStream(id: 1), .unsupported),
    (.unsupportedCompression(id: 2), .unsupported),
    (.limitExceeded(what: "entries", value: 2, limit: 1), .tooLarge),
    (.insufficientMemory(requiredBytes: 64 << 20, availableBytes: 1 << 20), .tooLarge),
    (.cancelled, .cancelled),
    (.incompleteDatabase(reason: "attachments"), .invalidRequest),
    (.crypto(.memoryLimitExceeded(requiredBytes: 2, limitBytes: 1)), .tooLarge),
    (.crypto(.memoryUnavailable(requiredBytes: 2)), .tooLarge),
    (.crypto(.cancelled), .cancelled),
    (.crypto(.invalidPadding), .damaged),
    (.crypto(.invalidKeySize(expected: 32, actual: 3)), .damaged),
    (.crypto(.invalidNonceSize(expected: 12, actual: 3)), .damaged),
    (.crypto(.invalidCiphertextLength(7)), .damaged),
    (.crypto(.invalidParameter(name: "m", reason: "0")), .damaged),
    (.crypto(.counterOverflow), .damaged),
    (.compression(.outputLimitExceeded(limit: 10)), .tooLarge),
    (.compression(.truncated(offset: 1)), .damaged),
    (.compression(.checksumMismatch(offset: 1)), .damaged),
    (.xml(XMLError(.limitExceeded(.depth), line: 1, column: 1)), .tooLarge),
    (.xml(XMLError(.unsupportedEncoding("UTF-16"), line: 1, column: 1)), .unsupported),
    (.xml(XMLError(.mismatchedTag(expected: "a", found: "b"), line: 1, column: 1)), .damaged),
    (.xml(XMLError(.unrepresentableCharacter(0), line: 0, column: 0)), .invalidRequest),
  ]

  @Test func everyKDBXErrorHasTheCategoryAnAlertNeedsAndOneLineSaysWhy() {
    for (error, category) in Self.kdbxTable {
      #expect(error.category == category, "\(error)")
      #expect(!error.description.isEmpty && !error.description.contains("\n"), "\(error)")
    }
    // Every category but the ones only sessions and storage produce is reached by the codec's own errors.
    let reached = Set(Self.kdbxTable.map { "\($0.1)" })
    for category in VaultErrorCategory.allCases where category != .changedOnDisk && category != .io {
      #expect(reached.contains("\(category)"), "\(category)")
    }
  }

  @Test func sessionAndStorageErrorsTakeTheirCategoryOrTheWrappedOne() {
    let table: [(VaultSessionError, VaultErrorCategory)] = [
      (.locked, .invalidRequest),
      (.fileExists, .invalidRequest),
      (.changedOnDisk, .changedOnDisk),
      (.storage(.notFound(location: "a")), .io),
      (.storage(.readFailed(location: "a", reason: "EIO")), .io),
      (.storage(.writeFailed(location: "a", reason: "ENOSPC")), .io),
      (.storage(.readOnly(location: "a")), .io),
      (.storage(.changedSinceRead(location: "a")), .changedOnDisk),
      (.kdbx(.invalidCredentials), .wrongKey),
      (.kdbx(.cachedKeyIsStale), .staleCachedKey),
    ]
    for (error, category) in table {
      #expect(error.category == category, "\(error)")
      #expect(!error.description.isEmpty && !error.description.contains("\n"), "\(error)")
    }
  }

  /// Real failures, not constructed cases: a wrong password, a truncated file, a foreign file, a budget too
  /// small for the KDF, another device's save under a cached key.
  @Test func realFailuresLandInTheCategoryAUserExpects() throws {
    let bytes = try CachedVaultKeyTests.vault()
    func category(_ bytes: [UInt8], _ key: CompositeKey, _ options: LoadOptions = .default) -> VaultErrorCategory? {
      do {
        _ = try KDBXFile.openBlocking(bytes: bytes, key: key, options: options)
        return nil
      } catch { return error.category }
    }
    #expect(category(bytes, CompositeKey(password: "wrong")) == .wrongKey)
    #expect(category(Array(bytes.prefix(bytes.count / 2)), CachedVaultKeyTests.key) == .damaged)
    #expect(category(Array("<html></html>".utf8), CachedVaultKeyTests.key) == .damaged)
    #expect(category(bytes, CachedVaultKeyTests.key, CachedVaultKeyTests.tight) == .tooLarge)
    var flipped = bytes
    flipped[flipped.count - 40] ^= 1
    #expect(category(flipped, CachedVaultKeyTests.key) == .damaged)

    let cached = try #require(try KDBXFile.openBlocking(bytes: bytes, key: CachedVaultKeyTests.key).cachedKey)
    // Another device's save draws a new KDF seed.
    var settings = CachedVaultKeyTests.argon
    if case .argon2(var parameters) = settings.kdf {
      parameters.salt = [UInt8](repeating: 9, count: 32)
      settings.kdf = .argon2(parameters)
    }
    let otherDevice = try CachedVaultKeyTests.vault(settings)
    do {
      _ = try KDBXFile.open(bytes: otherDevice, cachedKey: cached)
      Issue.record("a cached key opened a file with another seed")
    } catch { #expect(error.category == .staleCachedKey) }
  }
}

// Fuzz target: the KeePass 1.x reader past its key and hash checks (`KDB1Records`, `KDB1Import`, `KDB1AutoType`,
// `KDB1MetaStream`, `KDB1Time`). The input is a decrypted content: the target seals it into a `.kdb` file that a
// fixed transformed key opens (`CompositeKey(transformedKey:)`, so no key derivation runs), with the content hash
// right and the counts from the records found, and opens it with `KDB1File.open` (package API: run.sh builds with
// `-package-name`). The first byte is the number of group records (at most the records found; the rest are
// entries), bit 0 of the second picks Twofish instead of AES, bit 1 adds one to the entry count (a count that lies).
// Property: a file that opens gives a database whose save check passes, or refuses it only for a limit.
import KDBX
import KDBXCrypto
import KDBXImport

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size >= 2 else { return 0 }
  let content = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
  let records = recordCount(content)
  let groups = min(UInt32(data[0]), records)
  let entries = records - groups + UInt32(data[1] >> 1 & 1)
  let twofish = data[1] & 1 != 0
  guard let file = try? seal(content, groups: groups, entries: entries, twofish: twofish) else { return 0 }
  var random = SplitMix64(seed: UInt64(size))
  let opened: KDB1OpenedDatabase
  do {
    opened = try KDB1File.open(
      bytes: file, key: fixedKey, primitives: StandardPrimitives(), clock: FixedClock(Timestamp(secondsSince0001: 0)),
      random: &random)
  } catch {
    if case .invalidCredentials = error { fatalError("the sealed file does not open with its key") }
    return 0
  }
  do {
    try KDBXFile.checkSavable(opened.database, settings: SaveSettings(keeping: OpenedDatabase(importing: opened)))
  } catch {
    if case .limitExceeded = error { return 0 }
    fatalError("an opened KeePass 1.x database does not pass the save check: \(error)")
  }
  return 0
}

let fixedTransformed = [UInt8](repeating: 0x5A, count: 32)
let fixedKey: CompositeKey = {
  guard let key = try? CompositeKey(transformedKey: fixedTransformed) else { fatalError("32-byte key refused") }
  return key
}()

/// The number of records (field lists ended by a field of type 0xFFFF) that `content` holds in full.
func recordCount(_ content: [UInt8]) -> UInt32 {
  var offset = 0
  var count: UInt32 = 0
  while content.count - offset >= 6 {
    let type = UInt16(content[offset]) | UInt16(content[offset + 1]) << 8
    var size = 0
    for index in 0..<4 { size |= Int(content[offset + 2 + index]) << (8 * index) }
    offset += 6
    guard size <= content.count - offset else { break }
    offset += size
    if type == 0xFFFF { count += 1 }
  }
  return count
}

/// A `.kdb` file holding `content` that `fixedKey` opens.
func seal(_ content: [UInt8], groups: UInt32, entries: UInt32, twofish: Bool) throws(KDBXError) -> [UInt8] {
  let masterSeed = [UInt8](repeating: 0x11, count: 16)
  let iv = [UInt8](repeating: 0x22, count: 16)
  var header: [UInt8] = []
  func put(_ value: UInt32) {
    for shift in stride(from: 0, to: 32, by: 8) { header.append(UInt8(truncatingIfNeeded: value >> shift)) }
  }
  put(0x9AA2_D903)
  put(0xB54B_FB65)
  put(twofish ? 8 | 1 : 2 | 1)
  put(0x0003_0004)
  header += masterSeed + iv
  put(groups)
  put(entries)
  header += SHA256.hash(content).bytes
  header += [UInt8](repeating: 0x33, count: 32)
  put(1)
  var hasher = SHA256()
  hasher.update(masterSeed)
  hasher.update(fixedTransformed)
  let cipherKey = hasher.finalize().bytes
  return header
    + (try StandardPrimitives().encrypt(
      content, cipher: twofish ? .twofish : .aes256, key: cipherKey, iv: iv))
}

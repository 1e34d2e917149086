import KDBX
import KDBXFileIO
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``FileIO/readKeyFile(atPath:maxByteCount:)``: the same key as ``KDBX/KeyFile/init(contents:)`` for every form,
/// with large "any other file" key files hashed in a stream, and non-regular files refused.
@Suite struct KeyFileReadingTests {
  static func write(_ bytes: [UInt8], _ scratch: ScratchDirectory, _ name: String) throws -> String {
    let path = scratch.file(name)
    try FileIO.atomicWrite(bytes, toPath: path)
    return path
  }

  static func pseudoRandom(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 33)
    }
  }

  static let xmlKeyFile = Array(
    """
    <?xml version="1.0" encoding="utf-8"?>
    <KeyFile><Meta><Version>2.0</Version></Meta>
    <Key><Data Hash="AE216C2E">0102030405060708 090A0B0C0D0E0F10 1112131415161718 191A1B1C1D1E1F20</Data></Key></KeyFile>
    """.utf8)

  @Test("the same key as KeyFile(contents:)", arguments: ["binary", "hex", "xml", "small", "large", "large-xml-like"])
  func sameKeyAsTheLibrary(_ kind: String) throws {
    let scratch = ScratchDirectory()
    let contents: [UInt8]
    switch kind {
    case "binary": contents = Self.pseudoRandom(32, seed: 1)
    case "hex": contents = Array("0123456789abcdef0123456789abcdef0123456789abcdef0123456789ABCDEF".utf8)
    case "xml": contents = Self.xmlKeyFile
    case "small": contents = Self.pseudoRandom(1000, seed: 2)
    case "large": contents = Self.pseudoRandom(3 << 20, seed: 3)  // over 1 MiB: hashed in a stream
    default: contents = Array("<?xml version=\"1.0\"?>\n<!-- x -->\n<html>".utf8) + Self.pseudoRandom(2 << 20, seed: 4)
    }
    let path = try Self.write(contents, scratch, "key")
    let streamed = try FileIO.readKeyFile(atPath: path)
    let reference = try KeyFile(contents: contents)
    #expect(streamed == reference)
    #expect(streamed.format == reference.format)
  }

  /// An XML key file padded past 1 MiB (a comment) still reads as XML: it cannot be ruled out from its start.
  @Test func aLargeXMLKeyFileIsReadWhole() throws {
    let scratch = ScratchDirectory()
    let padding = Array("<!--".utf8) + [UInt8](repeating: 0x20, count: 2 << 20) + Array("-->\n".utf8)
    let contents = padding + Self.xmlKeyFile.drop { $0 != 0x0A }.dropFirst()
    let path = try Self.write(Array(contents), scratch, "key.keyx")
    let key = try FileIO.readKeyFile(atPath: path)
    #expect(key.format == .xmlVersion2)
    #expect(key == (try KeyFile(contents: Array(contents))))
  }

  @Test func nonRegularAndOversizedFilesAreRefused() throws {
    let scratch = ScratchDirectory()
    let fifo = scratch.file("key.fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: FileIOError.notRegularFile(path: fifo, kind: .fifo)) { try FileIO.readKeyFile(atPath: fifo) }
    #expect(throws: FileIOError.notRegularFile(path: "/dev/zero", kind: .characterDevice)) {
      try FileIO.readKeyFile(atPath: "/dev/zero")
    }
    #expect(throws: FileIOError.notRegularFile(path: scratch.path, kind: .directory)) {
      try FileIO.readKeyFile(atPath: scratch.path)
    }
    let path = try Self.write(Self.pseudoRandom(5000, seed: 5), scratch, "key")
    #expect(throws: FileIOError.tooLarge(path: path, byteCount: 5000, limit: 4096)) {
      try FileIO.readKeyFile(atPath: path, maxByteCount: 4096)
    }
    #expect(throws: FileIOError.notRegularFile(path: fifo, kind: .fifo)) { try FileIO.readFile(atPath: fifo) }
  }
}

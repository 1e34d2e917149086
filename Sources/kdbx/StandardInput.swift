#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard input read in blocks and handed out a line at a time. Every line the tool reads from standard input
/// (passwords when it is not a terminal, `kdbx open`'s commands, values for `add` and `edit`) comes from this one
/// buffer, so that a block read for one line never loses the lines after it.
final class StandardInput {
  /// The process's standard input. The tool reads it from the main thread only.
  // SAFETY: nonisolated(unsafe) because the class is not Sendable: its only callers (Terminal.readLine and
  // OpenCommand's buffered-line test) run in the synchronous commands on the main thread, so its state is never
  // touched from two threads; the let itself is initialised once by Swift's lazy global initialisation.
  nonisolated(unsafe) static let shared = StandardInput()

  private var buffer: [UInt8] = []
  /// Where the unread bytes of `buffer` start.
  private var start = 0
  private var ended = false
  private static let blockSize = 64 << 10

  /// Whether a whole line (or the end of input) is buffered, so that reading it will not wait for input.
  var hasBufferedLine: Bool {
    ended || buffer[start...].contains(0x0A)
  }

  /// Whether a line can be read without waiting more than `seconds`: one is buffered (`poll` would wait for more
  /// input), or input (or its end) arrives in time. `false` after `seconds` without input.
  func waitForInput(seconds: Int) -> Bool {
    if hasBufferedLine { return true }
    var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&descriptor, 1, Int32(seconds * 1000))
      if ready < 0 && errno == EINTR { continue }
      return ready != 0
    }
  }

  /// The next line without its line ending (`\n` or `\r\n`); `nil` at the end of input.
  func readLine() -> String? {
    var searchFrom = start
    while true {
      if let newline = buffer[searchFrom...].firstIndex(of: 0x0A) {
        var end = newline
        if end > start && buffer[end - 1] == 0x0D { end -= 1 }
        let line = String(decoding: buffer[start..<end], as: UTF8.self)
        start = newline + 1
        compact()
        return line
      }
      searchFrom = buffer.count
      guard fill() else {
        guard start < buffer.count else { return nil }
        var end = buffer.count
        if buffer[end - 1] == 0x0D { end -= 1 }
        let line = String(decoding: buffer[start..<end], as: UTF8.self)
        start = buffer.count
        compact()
        return line
      }
    }
  }

  /// Reads one more block; `false` at the end of input or on an error.
  private func fill() -> Bool {
    guard !ended else { return false }
    var block = [UInt8](repeating: 0, count: Self.blockSize)
    while true {
      // SAFETY: `read` writes at most `$0.count` bytes into the block's own storage, inside the closure.
      let count = block.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 {
        ended = true
        return false
      }
      buffer += block[0..<count]
      return true
    }
  }

  /// Drops the bytes already handed out once they are most of the buffer.
  private func compact() {
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    } else if start >= Self.blockSize && start * 2 >= buffer.count {
      buffer.removeFirst(start)
      start = 0
    }
  }
}

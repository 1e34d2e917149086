// The inflate kernel: decodes the Huffman-coded symbols of one block (RFC 1951 §3.2.5) into the
// output buffer. A fast loop runs while at least `fastInputMargin` input bytes and
// `fastOutputMargin` output bytes remain, with 64-bit word refills, table lookups and word-at-a-time
// match copies and no per-byte bounds checks; a careful loop finishes the tail with exact checks.

/// One symbol of a Huffman block, as ``InflateState/decodeSymbol(_:_:_:_:_:)`` decodes it.
enum InflateSymbol {
  case literal(UInt8)
  case match(length: Int, distance: Int)
  case endOfBlock
  case failed(CompressionError)
}

/// The decoder's bit-level position, passed in and out of the kernel.
struct InflateRegisters {
  var inPos: Int
  var bitBuffer: UInt64
  var bitCount: Int
  var outPos: Int
}

extension InflateState {
  /// Input bytes the fast loop needs ahead: two 8-byte refills per iteration, each loading 8 bytes.
  static let fastInputMargin = 32
  /// Output bytes the fast loop needs ahead: three literals, or a match copied in 16-byte words (at
  /// most 288 bytes written for a 258-byte match, see copyMatch), with room to spare.
  static let fastOutputMargin = 300

  mutating func decodeSymbols(_ input: [UInt8], _ output: inout [UInt8]) -> InflateKernelStatus {
    let tables = decodeTables
    var registers = InflateRegisters(
      inPos: inputPosition, bitBuffer: bitBuffer, bitCount: bitCount, outPos: outputPosition)
    let outStart = outputStart
    // SAFETY: the three buffers are the arrays' own storage, used by the kernel inside these closures only; the
    // table's size is checked (decodeTablesSize) before `lit` is used, and the kernel stays within inBuffer.count
    // and outBuffer.count (the notes in decodeKernel), with inputPosition <= input.count and outputStart <=
    // outputPosition <= output.count kept by the decoder between calls.
    let status: InflateKernelStatus = input.withUnsafeBufferPointer { inBuffer in
      output.withUnsafeMutableBufferPointer { outBuffer in
        tables.withUnsafeBufferPointer { tableBuffer in
          guard let lit = tableBuffer.baseAddress, tableBuffer.count == HuffmanEntry.decodeTablesSize else {
            return .outputFull(needed: 1)
          }
          guard let out = outBuffer.baseAddress else {
            // No output room at all (a zero limit): the kernel may still reach end-of-block.
            // SAFETY: with outEnd = 0 the kernel writes nothing through the dummy pointer.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { dummy in
              guard let pointer = dummy.baseAddress else { return .outputFull(needed: 1) }
              return Self.decodeKernel(inBuffer, pointer, 0, lit, outStart: outStart, registers: &registers)
            }
          }
          return Self.decodeKernel(
            inBuffer, out, outBuffer.count, lit, outStart: outStart, registers: &registers)
        }
      }
    }
    inputPosition = registers.inPos
    self.bitBuffer = registers.bitBuffer
    self.bitCount = registers.bitCount
    outputPosition = registers.outPos
    return status
  }

  /// The kernel proper. The decoder registers live in locals here (not in captured variables) so
  /// that the optimizer keeps them in machine registers.
  // SAFETY: the caller lends inBuffer (inEnd bytes), `out` with outEnd writable bytes and `lit` (the whole
  // decode table) for this call only; every pointer step below is bounded as its note says.
  static func decodeKernel(
    _ inBuffer: UnsafeBufferPointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ outEnd: Int,
    _ lit: UnsafePointer<UInt32>, outStart: Int, registers: inout InflateRegisters
  ) -> InflateKernelStatus {
    // SAFETY: `lit` is the start of `decodeTables` (the caller checked its size), which holds the distance
    // table at `distanceTableStart`: `dist(i)` reads its entry i (a constant displacement from `lit`, so the
    // two tables take one register).
    @inline(__always) func dist(_ index: Int) -> UInt32 { lit[HuffmanEntry.distanceTableStart &+ index] }
    var inPos = registers.inPos
    var bitBuffer = registers.bitBuffer
    var bitCount = registers.bitCount
    var outPos = registers.outPos
    defer {
      registers.inPos = inPos
      registers.bitBuffer = bitBuffer
      registers.bitCount = bitCount
      registers.outPos = outPos
    }
    // SAFETY: nil only for an empty input, and then the fast loop (if let inp) is skipped.
    let inp = UnsafeRawPointer(inBuffer.baseAddress)
    let inEnd = inBuffer.count
    let litMask: UInt64 = (1 << UInt64(HuffmanEntry.literalLengthPrimaryBits)) - 1
    let distMask: UInt64 = (1 << UInt64(HuffmanEntry.distancePrimaryBits)) - 1

    // MARK: fast loop
    // Each iteration starts with at least 56 bits buffered and `entry` already looked up from them
    // (the lookup of the next symbol is issued before a match is copied, so the two overlap), and
    // ends with one word refill. It advances raw pointers (fewer registers than base plus index);
    // `inPos` and `outPos` are set from them on every way out.
    // The fast loop runs while inPos <= inLimit and outPos <= outLimit.
    let inLimit = inEnd &- Self.fastInputMargin
    let outLimit = outEnd &- Self.fastOutputMargin
    if let inp, inPos <= inLimit && outPos <= outLimit {
      // SAFETY: (pointers) 0 <= inPos <= inLimit < inEnd and 0 <= outPos <= outLimit < outEnd, so
      // these point into the buffers.
      var ip = inp + inPos
      let ipLimit = inp + inLimit
      var op = out + outPos
      let opLimit = out + outLimit
      let opStart = out + outStart
      @inline(__always) func sync() {
        inPos = inp.distance(to: ip)
        outPos = out.distance(to: op)
      }
      // SAFETY: (every refill) ip + 8 <= inEnd, as the margin (32) is checked before each iteration
      // and an iteration refills once, advancing at most 7 bytes.
      @inline(__always) func refill() {
        bitBuffer |= UInt64(littleEndian: ip.loadUnaligned(as: UInt64.self)) &<< UInt64(truncatingIfNeeded: bitCount)
        ip += (63 &- bitCount) &>> 3
        bitCount |= 56
      }
      // The shift takes the entry's low six bits (`&>>` is modulo 64): its consumed count, at most 28.
      @inline(__always) func consume(_ entry: UInt32) {
        bitBuffer &>>= UInt64(truncatingIfNeeded: entry)
        bitCount &-= Int(entry & 0xFF)
      }
      refill()
      // SAFETY: (every table read) entries index the tables by at most `primaryBits` bits; subtable
      // pointers were checked against the table size when it was built.
      var entry = lit[Int(truncatingIfNeeded: bitBuffer & litMask)]
      repeat {
        // Literals first, with one test each: up to three from the primary table on one refill (3 x 11
        // bits consumed leave at least 23 of the 56 for the next lookup). A fourth measured slower, as
        // libdeflate's notes also find (the branch history of the literal runs).
        if entry & HuffmanEntry.literal != 0 {
          // SAFETY: (literal stores) op + 3 <= op + fastOutputMargin <= outEnd.
          consume(entry)
          op.pointee = UInt8(truncatingIfNeeded: entry >> 16)
          entry = lit[Int(truncatingIfNeeded: bitBuffer & litMask)]
          if entry & HuffmanEntry.literal != 0 {
            consume(entry)
            op[1] = UInt8(truncatingIfNeeded: entry >> 16)
            entry = lit[Int(truncatingIfNeeded: bitBuffer & litMask)]
            if entry & HuffmanEntry.literal != 0 {
              consume(entry)
              op[2] = UInt8(truncatingIfNeeded: entry >> 16)
              entry = lit[Int(truncatingIfNeeded: bitBuffer & litMask)]
              op += 3
              refill()
              continue
            }
            op += 2
            refill()
            continue
          }
          // `entry` was looked up from the buffered bits, which a refill only extends.
          op += 1
          refill()
          continue
        }
        // Everything else that is not a length (a subtable pointer, end of block, an invalid code)
        // takes one test on the way.
        if entry & HuffmanEntry.exceptional != 0 {
          if entry & HuffmanEntry.subtable != 0 {
            consume(entry)
            let subMask: UInt64 = (1 &<< UInt64((entry >> 8) & 0xF)) &- 1
            entry = lit[Int(entry >> 16) &+ Int(truncatingIfNeeded: bitBuffer & subMask)]
            if entry & HuffmanEntry.literal != 0 {
              consume(entry)
              op.pointee = UInt8(truncatingIfNeeded: entry >> 16)
              op += 1
              refill()
              entry = lit[Int(truncatingIfNeeded: bitBuffer & litMask)]
              continue
            }
          }
          if entry & (HuffmanEntry.endOfBlock | HuffmanEntry.invalid) != 0 {
            sync()
            if entry & HuffmanEntry.invalid != 0 {
              return .failed(.invalidSymbol(offset: inPos &- bitCount / 8))
            }
            consume(entry)
            return .endOfBlock
          }
        }
        // A length: base plus extra bits, both consumed at once (at most 20 of the 56 bits, 15 more
        // when it came through a subtable pointer).
        // The codeword and extra bits are the low `entry & 0xFF` bits of `saved`; the extra bits are
        // those above the codeword's `(entry >> 8) & 0xF`. (`&<<` and `&>>` take the shift modulo 64, so
        // the flag bits above, zero in length and distance entries, need no masking.)
        var saved = bitBuffer
        consume(entry)
        var codeAndExtra = saved & ((1 &<< UInt64(truncatingIfNeeded: entry)) &- 1)
        let length =
          Int(entry >> 16) &+ Int(truncatingIfNeeded: codeAndExtra &>> UInt64(truncatingIfNeeded: entry >> 8))
        // The distance: at least 36 bits remain (56 less at most 20), enough for its code and extra
        // bits (at most 28, a subtable pointer's 8 included).
        entry = dist(Int(truncatingIfNeeded: bitBuffer & distMask))
        if entry & (HuffmanEntry.subtable | HuffmanEntry.invalid) != 0 {
          if entry & HuffmanEntry.subtable != 0 {
            consume(entry)
            let subMask: UInt64 = (1 &<< UInt64((entry >> 8) & 0xF)) &- 1
            entry = dist(Int(entry >> 16) &+ Int(truncatingIfNeeded: bitBuffer & subMask))
          }
          if entry & HuffmanEntry.invalid != 0 {
            sync()
            return .failed(.invalidSymbol(offset: inPos &- bitCount / 8))
          }
        }
        saved = bitBuffer
        consume(entry)
        codeAndExtra = saved & ((1 &<< UInt64(truncatingIfNeeded: entry)) &- 1)
        let distance =
          Int(entry >> 16) &+ Int(truncatingIfNeeded: codeAndExtra &>> UInt64(truncatingIfNeeded: entry >> 8))
        if distance > opStart.distance(to: op) {
          sync()
          return .failed(.distanceTooFar(offset: inPos &- bitCount / 8))
        }
        // The next lookup does not wait for the refill: the iteration began with 64 input bits in
        // the buffer (a refill fills it whole, counting only 56 to 63), and a length and distance
        // take at most 48, so at least 16 true input bits remain.
        entry = lit[Int(truncatingIfNeeded: bitBuffer & litMask)]
        refill()
        Self.copyMatch(op, distance: distance, length: length)
        op += length
      } while ip <= ipLimit && op <= opLimit
      sync()
    }

    // MARK: careful loop
    while true {
      let savedIn = inPos
      let savedBuffer = bitBuffer
      let savedCount = bitCount
      switch Self.decodeSymbol(inBuffer, lit, &inPos, &bitBuffer, &bitCount) {
      case .literal(let byte):
        if outPos >= outEnd {
          inPos = savedIn
          bitBuffer = savedBuffer
          bitCount = savedCount
          return .outputFull(needed: 1)
        }
        out[outPos] = byte
        outPos &+= 1
      case .match(let length, let distance):
        if distance > outPos &- outStart {
          return .failed(.distanceTooFar(offset: inPos &- bitCount / 8))
        }
        if outEnd &- outPos < length {
          inPos = savedIn
          bitBuffer = savedBuffer
          bitCount = savedCount
          return .outputFull(needed: length)
        }
        // SAFETY: outPos + length <= outEnd and distance <= outPos - outStart were checked.
        var index = 0
        while index < length {
          out[outPos &+ index] = out[outPos &+ index &- distance]
          index &+= 1
        }
        outPos &+= length
      case .endOfBlock:
        return .endOfBlock
      case .failed(let error):
        return .failed(error)
      }
    }
  }

  /// Decodes the next symbol of a Huffman block (RFC 1951 §3.2.5) with exact input checks: the careful loop's
  /// step, and the verifier's (``Inflate/verify(_:startingAt:expecting:_:)``). It refills a word at a time while
  /// eight input bytes remain, then byte by byte; a match's distance is not checked against the output here.
  // SAFETY: `lit` is the whole decode table (literal/length, then distance at `distanceTableStart`), whose entries
  // index it by at most `primaryBits` bits or through subtable pointers checked when it was built; every input
  // read is below inBuffer.count.
  @inline(__always)
  static func decodeSymbol(
    _ inBuffer: UnsafeBufferPointer<UInt8>, _ lit: UnsafePointer<UInt32>, _ inPos: inout Int,
    _ bitBuffer: inout UInt64, _ bitCount: inout Int
  ) -> InflateSymbol {
    let inEnd = inBuffer.count
    let litMask: UInt64 = (1 << UInt64(HuffmanEntry.literalLengthPrimaryBits)) - 1
    let distMask: UInt64 = (1 << UInt64(HuffmanEntry.distancePrimaryBits)) - 1
    if bitCount < 56, inPos &+ 8 <= inEnd, let base = inBuffer.baseAddress {
      // SAFETY: inPos + 8 <= inEnd. The bits above bitCount were zero or these same input bits.
      let word = UnsafeRawPointer(base + inPos).loadUnaligned(as: UInt64.self)
      bitBuffer |= UInt64(littleEndian: word) &<< UInt64(truncatingIfNeeded: bitCount)
      inPos &+= (63 &- bitCount) &>> 3
      bitCount |= 56
    }
    while bitCount < 56 && inPos < inEnd {
      // SAFETY: inPos < inEnd was just checked.
      bitBuffer |= UInt64(inBuffer[inPos]) &<< UInt64(bitCount)
      inPos &+= 1
      bitCount &+= 8
    }
    let exhausted = inPos == inEnd
    var entry = lit[Int(truncatingIfNeeded: bitBuffer & litMask)]
    if entry & HuffmanEntry.subtable != 0 {
      if Int(entry & 0xFF) > bitCount { return .failed(.truncated(offset: inEnd)) }
      bitBuffer &>>= UInt64(entry & 0xFF)
      bitCount &-= Int(entry & 0xFF)
      let subMask: UInt64 = (1 &<< UInt64((entry >> 8) & 0xF)) &- 1
      entry = lit[Int(entry >> 16) &+ Int(truncatingIfNeeded: bitBuffer & subMask)]
    }
    if entry & HuffmanEntry.invalid != 0 {
      // An entry longer than the bits left only looked at zero padding past the end.
      if exhausted && Int(entry & 0xFF) > bitCount { return .failed(.truncated(offset: inEnd)) }
      return .failed(.invalidSymbol(offset: inPos &- bitCount / 8))
    }
    if Int(entry & 0xFF) > bitCount { return .failed(.truncated(offset: inEnd)) }
    var saved = bitBuffer
    bitBuffer &>>= UInt64(entry & 0xFF)
    bitCount &-= Int(entry & 0xFF)
    if entry & HuffmanEntry.literal != 0 { return .literal(UInt8(truncatingIfNeeded: entry >> 16)) }
    if entry & HuffmanEntry.endOfBlock != 0 { return .endOfBlock }
    var extraMask: UInt64 = (1 &<< UInt64((entry & 0xFF) &- ((entry >> 8) & 0xF))) &- 1
    let length = Int(entry >> 16) &+ Int(truncatingIfNeeded: (saved &>> UInt64((entry >> 8) & 0xF)) & extraMask)
    entry = lit[HuffmanEntry.distanceTableStart &+ Int(truncatingIfNeeded: bitBuffer & distMask)]
    if entry & HuffmanEntry.subtable != 0 {
      if Int(entry & 0xFF) > bitCount { return .failed(.truncated(offset: inEnd)) }
      bitBuffer &>>= UInt64(entry & 0xFF)
      bitCount &-= Int(entry & 0xFF)
      let subMask: UInt64 = (1 &<< UInt64((entry >> 8) & 0xF)) &- 1
      entry = lit[HuffmanEntry.distanceTableStart &+ Int(entry >> 16) &+ Int(truncatingIfNeeded: bitBuffer & subMask)]
    }
    if entry & HuffmanEntry.invalid != 0 {
      // An entry longer than the bits left only looked at zero padding past the end.
      if exhausted && Int(entry & 0xFF) > bitCount { return .failed(.truncated(offset: inEnd)) }
      return .failed(.invalidSymbol(offset: inPos &- bitCount / 8))
    }
    if Int(entry & 0xFF) > bitCount { return .failed(.truncated(offset: inEnd)) }
    saved = bitBuffer
    bitBuffer &>>= UInt64(entry & 0xFF)
    bitCount &-= Int(entry & 0xFF)
    extraMask = (1 &<< UInt64((entry & 0xFF) &- ((entry >> 8) & 0xF))) &- 1
    let distance = Int(entry >> 16) &+ Int(truncatingIfNeeded: (saved &>> UInt64((entry >> 8) & 0xF)) & extraMask)
    return .match(length: length, distance: distance)
  }

  /// Copies a match of `length` bytes from `distance` bytes before `destination`, in 16- or 8-byte
  /// words where the distance allows. It may write past `destination + length`, but never past
  /// `destination + 288` for a length up to 258 (64 bytes, then 32 per step).
  @inline(__always)
  // SAFETY: only the fast loop calls this, with op <= opLimit = outEnd - 300 (so target + 288 <= outEnd) and
  // distance <= op - opStart checked before the call. Overlapping copies read only bytes already final: a word at
  // index - distance ends at or before index (distance >= word size), and the words are copied in order.
  static func copyMatch(_ target: UnsafeMutablePointer<UInt8>, distance: Int, length: Int) {
    // SAFETY: the caller guarantees target + 288 <= the buffer's end and that target - distance is
    // within the buffer.
    let destination = UnsafeMutableRawPointer(target)
    let source = UnsafeRawPointer(target + (0 &- distance))
    if distance >= 16 {
      // Four words without a loop test cover most matches (XML's are mostly under 64 bytes), then
      // two words per step.
      destination.storeBytes(of: source.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
      destination.storeBytes(
        of: source.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self), toByteOffset: 16,
        as: SIMD16<UInt8>.self)
      destination.storeBytes(
        of: source.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self), toByteOffset: 32,
        as: SIMD16<UInt8>.self)
      destination.storeBytes(
        of: source.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self), toByteOffset: 48,
        as: SIMD16<UInt8>.self)
      var index = 64
      while index < length {
        destination.storeBytes(
          of: source.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self), toByteOffset: index,
          as: SIMD16<UInt8>.self)
        destination.storeBytes(
          of: source.loadUnaligned(fromByteOffset: index &+ 16, as: SIMD16<UInt8>.self), toByteOffset: index &+ 16,
          as: SIMD16<UInt8>.self)
        index &+= 32
      }
    } else if distance >= 8 {
      var index = 0
      repeat {
        destination.storeBytes(
          of: source.loadUnaligned(fromByteOffset: index, as: UInt64.self), toByteOffset: index, as: UInt64.self)
        index &+= 8
      } while index < length
    } else if distance == 1 {
      let word = UInt64(source.load(as: UInt8.self)) &* 0x0101_0101_0101_0101
      var index = 0
      repeat {
        destination.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
        index &+= 8
      } while index < length
    } else {
      var index = 0
      while index < length {
        target[index] = target[index &- distance]
        index &+= 1
      }
    }
  }

  /// Copies `count` bytes of a stored block.
  static func copyBytes(
    from input: [UInt8], at inputOffset: Int, to output: inout [UInt8], at outputOffset: Int, count: Int
  ) {
    precondition(inputOffset + count <= input.count && outputOffset + count <= output.count)
    if count == 0 { return }
    // SAFETY: both arrays' own storage, inside the closures; ranges checked by the precondition above.
    input.withUnsafeBytes { source in
      output.withUnsafeMutableBytes { destination in
        // SAFETY: both ranges were checked against the buffer sizes above.
        UnsafeMutableRawBufferPointer(rebasing: destination[outputOffset..<outputOffset + count]).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: source[inputOffset..<inputOffset + count]))
      }
    }
  }
}

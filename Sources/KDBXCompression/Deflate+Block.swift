// The block-writing kernel: emits a block's symbols with the codes in `encodeTable`
// (RFC 1951 §3.2.5), through a 64-bit bit buffer stored to the output a word at a time.

/// Distance symbol to base distance (bits 0...15) and extra-bit count (bits 16...23).
private let distanceBaseAndExtra: [UInt32] = (0..<32).map { index in
  index < 30
    ? UInt32(DeflateConstants.distanceBase[index]) | UInt32(DeflateConstants.distanceExtraBits[index]) << 16 : 0
}

extension DeflateBlockCoder {
  /// Writes `symbols[0..<count]` and the end-of-block code. The caller reserved room for the
  /// block's exact size plus slack.
  mutating func writeSymbols(_ writer: inout BitWriter, _ symbols: [UInt32], _ count: Int) {
    var bytes = writer.bytes
    writer.bytes = []
    var positionIn = writer.position
    var bitBufferIn = writer.bitBuffer
    var bitCountIn = writer.bitCount
    let distanceSymbol = self.distanceSymbol
    // SAFETY: each buffer is an array's own storage (the writer's bytes moved into a local, so no overlap with
    // `writer`), used inside these closures only; the writes stay below `capacity` by the slack the caller reserved
    // (noted inside), and table reads are bounded as noted there.
    bytes.withUnsafeMutableBytes { outBuffer in
      symbols.withUnsafeBufferPointer { symbolBuffer in
        encodeTable.withUnsafeBufferPointer { tableBuffer in
          distanceSymbol.withUnsafeBufferPointer { distanceSymbolBuffer in
            distanceBaseAndExtra.withUnsafeBufferPointer { baseBuffer in
              guard let out = outBuffer.baseAddress, let table = tableBuffer.baseAddress,
                let distanceSymbols = distanceSymbolBuffer.baseAddress, let bases = baseBuffer.baseAddress
              else { return }
              let capacity = outBuffer.count
              // Locals, not captured variables, so that they stay in registers.
              var position = positionIn
              var bitBuffer = bitBufferIn
              var bitCount = bitCountIn
              defer {
                positionIn = position
                bitBufferIn = bitBuffer
                bitCountIn = bitCount
              }
              @inline(__always) func flush() {
                // SAFETY: the caller reserved the block's exact byte size plus 16 bytes of slack,
                // so position + 8 <= capacity for every store.
                precondition(position + 8 <= capacity)
                out.storeBytes(of: bitBuffer.littleEndian, toByteOffset: position, as: UInt64.self)
                position &+= bitCount &>> 3
                bitBuffer &>>= UInt64(bitCount & ~7)
                bitCount &= 7
              }
              var index = 0
              while index < count {
                // SAFETY: index < count <= symbols.count; table indices are below 515 + 30 by
                // construction of the symbols (lengths 3...258, distances 1...32768).
                let symbol = symbolBuffer[index]
                if symbol < 512 {
                  let entry = table[Int(symbol)]
                  bitBuffer |= UInt64(entry & 0xFF_FFFF) &<< UInt64(bitCount)
                  bitCount &+= Int(entry >> 24)
                } else {
                  let lengthEntry = table[256 &+ Int(symbol & 511)]
                  bitBuffer |= UInt64(lengthEntry & 0xFF_FFFF) &<< UInt64(bitCount)
                  bitCount &+= Int(lengthEntry >> 24)
                  if bitCount >= 32 { flush() }
                  let distance = Int(symbol >> 9)
                  let dsym =
                    distance <= 256
                    ? Int(distanceSymbols[distance &- 1]) : Int(distanceSymbols[256 &+ (distance &- 1) &>> 7])
                  let distanceEntry = table[515 &+ dsym]
                  let baseEntry = bases[dsym]
                  let codeLength = distanceEntry >> 24
                  let extra = UInt32(distance) &- (baseEntry & 0xFFFF)
                  bitBuffer |= UInt64((distanceEntry & 0xFFFF) | extra &<< codeLength) &<< UInt64(bitCount)
                  bitCount &+= Int(codeLength &+ (baseEntry >> 16))
                }
                if bitCount >= 32 { flush() }
                index &+= 1
              }
              let end = table[256]
              bitBuffer |= UInt64(end & 0xFF_FFFF) &<< UInt64(bitCount)
              bitCount &+= Int(end >> 24)
              flush()
            }
          }
        }
      }
    }
    writer.bytes = bytes
    writer.position = positionIn
    writer.bitBuffer = bitBufferIn
    writer.bitCount = bitCountIn
  }
}

import KDBX
import Testing

@Suite("Standard icons")
struct StandardIconTests {
  @Test func paletteHasKeePassNumbering() {
    #expect(StandardIcon.allCases.count == 69)
    // Spot checks against KeePass's PwIcon numbering (KeePassLib/PwEnums.cs).
    #expect(StandardIcon(rawValue: 0)?.keePassName == "Key")
    #expect(StandardIcon(rawValue: 19)?.keePassName == "EMail")
    #expect(StandardIcon(rawValue: 43)?.keePassName == "TrashBin")
    #expect(StandardIcon(rawValue: 48)?.keePassName == "Folder")
    #expect(StandardIcon(rawValue: 62)?.keePassName == "Tux")
    #expect(StandardIcon(rawValue: 68)?.keePassName == "BlackBerry")
    #expect(StandardIcon(rawValue: 69) == nil)
  }

  @Test func unmappedIndicesFallBackToKey() {
    #expect(StandardIcon.sfSymbolName(forIconID: 19) == "envelope.fill")
    #expect(StandardIcon.sfSymbolName(forIconID: 69) == "key.fill")
    #expect(StandardIcon.sfSymbolName(forIconID: -1) == "key.fill")
  }

  @Test func everyIconHasADistinctNameAndASymbol() {
    let names = Set(StandardIcon.allCases.map { $0.keePassName })
    #expect(names.count == 69)
    #expect(StandardIcon.allCases.allSatisfy { !$0.sfSymbolName.isEmpty })
  }
}

import KDBX
import Testing

@Test func versionsOrderAndName() {
  #expect(KDBXVersion.v3_1 < KDBXVersion.v4_1)
  #expect(KDBXVersion.v4_0.name == "4.0")
}

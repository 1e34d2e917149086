import KDBX
import KDBXBase
import Testing
import VectorSupport

@Suite struct SearchTests {
  static func found(_ search: EntrySearch) -> [KDBXUUID] {
    LibraryFixture.make().displayedEntries(search: search).map { $0.entry.uuid }
  }

  @Test(arguments: [
    ("creme", "Crème brûlée"), ("BRULEE", "Crème brûlée"), ("crème", "creme"), ("cre\u{300}me", "Crème"),
    ("zurich", "Café Zürich"), ("ÅNGSTRÖM", "angstrom"), ("ελληνικα", "ΕΛΛΗΝΙΚΆ"), ("jose", "JOSÉ"),
  ])
  func foldingIgnoresCaseAndDiacritics(_ needle: String, _ haystack: String) {
    #expect(DiacriticFolding.matches(haystack, folded: DiacriticFolding.fold(needle)))
  }

  @Test func foldingKeepsLettersWithoutADecomposition() {
    #expect(DiacriticFolding.fold("Øl") == DiacriticFolding.fold("øL"))
    #expect(!DiacriticFolding.matches("Øl", folded: DiacriticFolding.fold("ol")))
    #expect(!DiacriticFolding.matches("abc", folded: DiacriticFolding.fold("abd")))
    #expect(DiacriticFolding.matches("", folded: []))
    #expect(DiacriticFolding.fold("Ǆ e\u{301}") == Array("ǆ e".unicodeScalars))
  }

  @Test func searchesTheStandardFieldsByDefault() {
    #expect(Self.found(EntrySearch(text: "github.COM")) == [LibraryFixture.github])
    #expect(Self.found(EntrySearch(text: "creme")) == [LibraryFixture.github])
    #expect(Self.found(EntrySearch(text: "code")) == [LibraryFixture.github])
    #expect(Self.found(EntrySearch(text: "jurgen")) == [LibraryFixture.cafe])
    #expect(Self.found(EntrySearch(text: "")).count == 4)
    #expect(Self.found(EntrySearch(text: "nothing like this")).isEmpty)
  }

  @Test func fieldOptionsNarrowTheSearch() {
    #expect(Self.found(EntrySearch(text: "octo", fields: .title)).isEmpty)
    #expect(Self.found(EntrySearch(text: "octo", fields: .userName)) == [LibraryFixture.github])
    #expect(Self.found(EntrySearch(text: "dev", fields: [.title, .url])).isEmpty)
    #expect(Self.found(EntrySearch(text: "dev", fields: .tags)) == [LibraryFixture.github])
    #expect(Self.found(EntrySearch(text: "gold", fields: .customFields)) == [LibraryFixture.cafe])
    #expect(Self.found(EntrySearch(text: "2121", fields: .uuid)) == [LibraryFixture.github])
  }

  @Test func protectedValuesAreSearchedOnlyWhenAsked() {
    #expect(Self.found(EntrySearch(text: "hunter2")).isEmpty)
    #expect(Self.found(EntrySearch(text: "hunter2", fields: [.standard, .password])) == [LibraryFixture.github])
    #expect(Self.found(EntrySearch(text: "4711", fields: .customFields)).isEmpty)
    #expect(Self.found(EntrySearch(text: "4711", fields: .protectedCustomFields)) == [LibraryFixture.cafe])
  }

  @Test func aProtectedTitleIsStillSearchedAsATitle() {
    var random = SplitMix64(seed: 5)
    var entry = Entry(uuid: LibraryFixture.uuid(1))
    entry[field: Entry.titleField] = .protected(ProtectedValue("Secret Bank", using: &random))
    #expect(EntrySearch(text: "bank").matches(entry))
    #expect(!EntrySearch(text: "bank", fields: .notes).matches(entry))
  }
}

import Testing
@testable import STOLEngine
import STOLProtocol

@Suite struct NameMatcherTests {
    func tier(_ query: String, _ name: String, _ lang: String? = "en") throws -> MatchTier? {
        let parsed = try #require(try SearchQuery.parse(query))
        return NameMatcher(parsed).match(name: name, nameFolded: TextFolding.fold(name), lang: lang)?.tier
    }

    @Test func tiersOfOneName() throws {
        #expect(try tier("lion", "Lion") == .exact)
        #expect(try tier("Löwe", "Löwe", "de") == .exact)
        #expect(try tier("lowe", "Löwe", "de") == .exactFolded)
        #expect(try tier("elephant", "Asian elephant") == .wholeWord)
        #expect(try tier("wolves", "Grey wolf") == .inflected)
        #expect(try tier("pocket mice", "Silky pocket mouse") == .inflected)
        #expect(try tier("panth", "Panthera", nil) == .prefix)
        #expect(try tier("Fuchs", "Rotfuchs", "de") == .wordInternal)
        #expect(try tier("Mäuse", "Hausmaus", "de") == .wordInternal)
        #expect(try tier("lion zebra", "Lion") == nil, "every word must match")
        #expect(try tier("\"tree frog\"", "Frog tree") == nil, "a phrase keeps its order")
        #expect(try tier("ox", "Fox") == nil, "no word-internal match under three letters")
        #expect(try tier("Panthera loe", "Loepantheraea", nil) == nil, "one word is not a compound of two query words")
        #expect(try tier("Haus fuchs", "Rotfuchs am Haus", "de") == .wordInternal)
        #expect(try tier("Bär", "Eisbär", "de") == .wordInternal)
        #expect(try tier("leo", "Oleosa", nil) == nil, "three letters inside a word only at its end")
    }

    @Test func accentsAsTyped() throws {
        let parsed = try #require(try SearchQuery.parse("Bär"))
        let matcher = NameMatcher(parsed)
        #expect(matcher.match(name: "Bar commun", nameFolded: "bar commun", lang: "fr")?.accentMismatch == true)
        #expect(matcher.match(name: "Eisbär", nameFolded: "eisbar", lang: "de")?.accentMismatch == false)
        #expect(matcher.match(name: "Bären", nameFolded: "baren", lang: "de")?.accentMismatch == false)
        let wolves = NameMatcher(try #require(try SearchQuery.parse("Wölfe")))
        #expect(wolves.match(name: "Wolf", nameFolded: "wolf", lang: "de")?.accentMismatch == false, "plurals may change accents")
    }
}

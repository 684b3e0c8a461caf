import STOLProtocol
import Testing

@testable import STOLEngine

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

    /// A typical word beside the query word alone names the typical organism of its kind.
    @Test func typicalNames() throws {
        func typical(_ query: String, _ name: String, _ lang: String, parts: [[String]]? = nil) throws -> Bool {
            let parsed = try #require(try SearchQuery.parse(query))
            let folded = TextFolding.fold(name)
            let head = NameStructure.head(ofFolded: folded, lang: lang, matchType: "common")
            return NameMatcher(parsed).match(name: name, nameFolded: folded, lang: lang, parts: parts, head: head)?.typical ?? false
        }
        #expect(try typical("carp", "Common carp", "en") && typical("carps", "Common carp", "en"))
        #expect(try typical("dauphin", "Dauphin commun", "fr") && typical("delfín", "Delfín común", "es"))
        #expect(try typical("Delfin", "Gemeiner Delfin", "de"))
        #expect(try !typical("Fliege", "Gemeine Florfliege", "de", parts: [["gemeine"], ["flor", "fliege"]]))
        #expect(try !typical("bat", "Common vampire bat", "en") && !typical("common", "Common carp", "en"))
        #expect(try !typical("carp", "Black carp", "en") && !typical("carp", "Common carp", "de"))
        // A group so named is named by its head alone; one with another word is not.
        func bare(_ query: String, _ name: String) throws -> Bool {
            let parsed = try #require(try SearchQuery.parse(query))
            return NameMatcher(parsed).match(name: name, nameFolded: TextFolding.fold(name), lang: "en", head: nil)?.bare ?? false
        }
        #expect(try bare("seal", "True seals") && bare("bear", "Bears"))
        #expect(try !bare("spider", "Fishing spiders") && !bare("cat", "Cat family"))
        // A list is named by its first item, unless it says it holds more ("and others", "& allies").
        #expect(try bare("salamander", "Salamanders and newts") && bare("frog", "frogs & toads"))
        #expect(try !bare("carp", "carps and others") && !bare("shorebird", "shorebirds & allies"))
    }

    /// A name's compound parts are whole words; a query word on the name's head says so.
    @Test func partsAndHeads() throws {
        func match(_ query: String, _ name: String, _ lang: String?, parts: [[String]], head: String?) throws -> NameMatcher.Match? {
            NameMatcher(try #require(try SearchQuery.parse(query))).match(name: name, nameFolded: TextFolding.fold(name), lang: lang, parts: parts, head: head)
        }
        let blauwal = try match("Wal", "Blauwal", "de", parts: [["blau", "wal"]], head: "wal")
        #expect(blauwal?.tier == .wholeWord && blauwal?.head == true)
        let walhai = try match("Wal", "Walhai", "de", parts: [["wal", "hai"]], head: "hai")
        #expect(walhai?.tier == .wholeWord && walhai?.head == false)
        let waldrapp = try match("Wal", "Waldrapp", "de", parts: [["waldrapp"]], head: "waldrapp")
        #expect(waldrapp?.tier == .prefix)
        let hausmaus = try match("Mäuse", "Hausmaus", "de", parts: [["haus", "maus"]], head: "maus")
        #expect(hausmaus?.tier == .inflected && hausmaus?.head == true, "a part in another number")
        let flea = try match("chat", "Puce du chat", "fr", parts: [["puce"], ["du"], ["chat"]], head: "puce")
        #expect(flea?.tier == .wholeWord && flea?.head == false)
        let cat = try match("chat", "Chat domestique", "fr", parts: [["chat"], ["domestique"]], head: "chat")
        #expect(cat?.head == true)
        #expect(try match("bear", "Bears", "en", parts: [["bears"]], head: "bears")?.tier == .exactInflected, "the whole name in the plural")
        // An accented word matched only without its accents, as a name in another language may.
        let folded = try match("chêne", "Lerchen", "de", parts: [["lerchen"]], head: "lerchen")
        #expect(folded == nil || folded?.foldedOnly == true)
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

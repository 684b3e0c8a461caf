import Testing
@testable import STOLEngine

/// The lexicon files: their format, and the bundled ones.
@Suite struct LexiconTests {
    @Test func parsesItsFourSections() {
        let lexicon = Lexicon(parsing: """
            # a comment
            [means]
            puppy, Doggy: dog
            killer whale: orca
            [same]
            grey: gray
            honeybee: honey bee
            [words]
            pony  sheep
            [modifiers]
            grand petit
            [unknown]
            ignored: line
            no colon here
            """)
        #expect(lexicon.means["puppy"] == ["dog"] && lexicon.means["doggy"] == ["dog"])
        #expect(lexicon.means["killer whale"] == ["orca"])
        #expect(lexicon.same["grey"] == ["gray"] && lexicon.same["gray"] == ["grey"], "forms of one word find each other")
        #expect(lexicon.same["honey bee"] == ["honeybee"])
        #expect(lexicon.words.isSuperset(of: ["pony", "sheep", "puppy", "doggy", "dog", "grey", "gray", "honeybee", "orca"]))
        #expect(!lexicon.words.contains("honey bee") && !lexicon.words.contains("ignored"))
        #expect(lexicon.modifiers == ["grand", "petit"])
        #expect(lexicon.alternatives(of: "puppies", lang: "en") == ["dog"], "a plural finds its singular's entry")
        #expect(lexicon.knows("ponies", lang: "en"))
    }

    @Test func bundledLexiconsAreRead() {
        for lang in ["en", "de", "fr", "es"] {
            let lexicon = Lexicon.of(lang)
            #expect(!lexicon.means.isEmpty && !lexicon.words.isEmpty, "\(lang)")
        }
        #expect(Lexicon.of("en").alternatives(of: "puppy", lang: "en") == ["dog"])
        #expect(Lexicon.of("de").alternatives(of: "katzchen", lang: "de") == ["katze"], "entries are compared folded")
        #expect(Lexicon.of("fr").modifiers.contains("grand"))
        #expect(Lexicon.of("en-GB").knows("pony", lang: "en"), "a regional tag reads its language's file")
        #expect(Lexicon.of("xx").words.isEmpty)
    }
}

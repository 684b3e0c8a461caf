import Testing

@testable import STOLEngine

@Suite struct DiminutiveTests {
    /// Each regular diminutive proposes the word it is formed from (folded, as search compares).
    @Test func regularDiminutivesProposeTheirBase() {
        let cases: [(String, String, String)] = [
            ("mauschen", "maus", "de"), ("katzchen", "katze", "de"), ("haschen", "hase", "de"), ("vogelchen", "vogel", "de"),
            ("voglein", "vogel", "de"), ("hundchen", "hund", "de"), ("entlein", "ente", "de"), ("barchen", "bar", "de"),
            ("ratoncito", "raton", "es"), ("corderito", "cordero", "es"), ("gatito", "gato", "es"), ("pajarito", "pajaro", "es"),
            ("perrito", "perro", "es"), ("ovejita", "oveja", "es"), ("osito", "oso", "es"), ("vaquita", "vaca", "es"),
            ("hormiguita", "hormiga", "es"), ("pececito", "pez", "es"), ("pajarillo", "pajaro", "es"), ("leoncito", "leon", "es"),
            ("chaton", "chat", "fr"), ("ourson", "ours", "fr"), ("girafon", "girafe", "fr"), ("renardeau", "renard", "fr"),
            ("lionceau", "lion", "fr"), ("poulette", "poule", "fr"), ("cochonnet", "cochon", "fr"), ("porcelet", "porc", "fr"),
            ("elephanteau", "elephant", "fr"), ("chevreau", "chevre", "fr"), ("anon", "ane", "fr"),
        ]
        for (word, base, lang) in cases {
            #expect(Diminutive.bases(of: word, lang: lang).contains(base), "\(word) → \(base) in \(lang): \(Diminutive.bases(of: word, lang: lang))")
        }
    }

    /// The likeliest base comes first where rules compete: `pececito` is pez before the plural stem pece.
    @Test func likeliestBaseComesFirst() {
        #expect(Diminutive.bases(of: "pececito", lang: "es").first == "pez")
        #expect(Diminutive.bases(of: "gatito", lang: "es").first == "gato")
        #expect(Diminutive.bases(of: "chaton", lang: "fr").first == "chat")
        #expect(Diminutive.bases(of: "mauschen", lang: "de").first == "maus")
    }

    /// Rules stay in their language, and words without a diminutive ending, short words and
    /// languages without rules propose nothing.
    @Test func rulesStayInTheirLanguageAndEndings() {
        #expect(Diminutive.bases(of: "chaton", lang: "de").isEmpty)
        #expect(Diminutive.bases(of: "gatito", lang: "fr").allSatisfy { $0 != "gato" })
        #expect(Diminutive.bases(of: "mauschen", lang: "es").isEmpty)
        #expect(Diminutive.bases(of: "kitten", lang: "en").isEmpty, "English child words are the lexicon's")
        #expect(Diminutive.bases(of: "gatito", lang: nil).isEmpty)
        #expect(Diminutive.bases(of: "hund", lang: "de").isEmpty)
        #expect(Diminutive.bases(of: "ito", lang: "es").isEmpty, "no stem, no base")
        #expect(Diminutive.bases(of: "chen", lang: "de").isEmpty)
        #expect(Diminutive.bases(of: "gatito", lang: "es-MX").contains("gato"), "region subtags count as the language")
        for (word, lang) in [("katzchen", "de"), ("gatito", "es"), ("chaton", "fr")] {
            #expect(!Diminutive.bases(of: word, lang: lang).contains(word), "a word is no base of itself")
        }
    }
}

import Testing
@testable import STOLEngine

/// The head of a name in its language, and compound words split at the words a language knows.
@Suite struct NameStructureTests {
    func structure(_ name: String, _ lang: String, known: Set<String> = []) -> NameStructure? {
        let splitter = NameStructure.compounding.contains(lang) ? CompoundSplitter(known: known.union(Lexicon.of(lang).words), lang: lang) : nil
        return NameStructure.of(folded: TextFolding.fold(name), lang: lang, lexicon: Lexicon.of(lang), splitter: splitter)
    }

    @Test func headsByLanguage() {
        #expect(structure("Asian elephant", "en")?.head == "elephant")
        #expect(structure("Elephant shrew", "en")?.head == "shrew")
        #expect(structure("Bird of paradise", "en")?.head == "bird")
        #expect(structure("Cactus family", "en")?.head == "cactus", "a trailing word of the lexicon's [modifiers] is no head")
        #expect(structure("Salamanders and newts", "en")?.head == "salamanders", "a name listing groups is about the first")
        #expect(structure("Dogs, wolves and foxes", "en")?.head == "dogs")
        #expect(structure("Puce du chat", "fr")?.head == "puce")
        #expect(structure("Grand requin blanc", "fr")?.head == "requin", "a modifier before the head")
        #expect(structure("Requin-baleine", "fr")?.head == "requin")
        #expect(structure("Pez elefante", "es")?.head == "pez")
        #expect(structure("Weißer Hai", "de")?.head == "hai")
    }

    @Test func aHyphenBeforeTheHeadMakesTheCompoundTheHead() {
        // Botanical English: a hyphenated head says the organism is not of the head's kind.
        #expect(structure("Sun-rose", "en")?.head == "sun-rose")
        #expect(structure("Spanish-moss", "en")?.head == "spanish-moss")
        #expect(structure("Common grape-ivy", "en")?.head == "grape-ivy")
        #expect(structure("devil's-pumpkin", "en")?.head == "devil's-pumpkin")
        #expect(NameStructure.head(ofFolded: "sun-rose", lang: "en", matchType: "common") == "sun-rose", "the same without stored structure")
        // Hyphens among the modifiers leave the head alone; the lexicon's split forms are of the kind.
        #expect(structure("Blue-footed booby", "en")?.head == "booby")
        #expect(structure("Grey-capped warbler", "en")?.head == "warbler")
        #expect(structure("Honey-bee", "en")?.head == "bee", "honeybee: honey bee in the lexicon")
        #expect(structure("Requin-baleine", "fr")?.head == "requin", "English only: French puts the head first")
        #expect(structure("Rose", "en")?.head == "rose")
        // The word alone is not the compound head; with the compound's other words it is.
        #expect(!NameStructure.isHead(["rose"], head: "sun-rose", tokens: ["rose"]))
        #expect(NameStructure.isHead(["rose"], head: "sun-rose", tokens: ["sun", "rose"]))
        #expect(NameStructure.isHead(["finch"], head: "seed-finch", tokens: ["great", "billed", "seed", "finch"]))
        #expect(NameStructure.isHead(["rose"], head: "rose", tokens: []))
        #expect(NameStructure.isHead(["blau", "wal"], head: "wal", tokens: ["wal"]))
    }

    @Test func compoundsSplitAtKnownWords() {
        let known: Set<String> = ["wal", "hund", "robbe", "maus", "kiefer", "spinnen"]
        #expect(structure("Blauwal", "de", known: known) == NameStructure(head: "wal", parts: "blau|wal"))
        #expect(structure("Haushund", "de", known: known) == NameStructure(head: "hund", parts: "haus|hund"))
        // A linking element stays with the part before it; a plural ending is known through the singular.
        #expect(structure("Hundsrobben", "de", known: known) == NameStructure(head: "robben", parts: "hunds|robben"))
        #expect(structure("Waldkiefer", "de", known: known)?.parts == "wald|kiefer")
        #expect(structure("Webspinnen", "de", known: known)?.parts == "web|spinnen", "three unknown letters before five known")
        // No split into an unknown stub and a short known word, nor at the word itself.
        #expect(structure("Giraffe", "de", known: known.union(["affe"]))?.parts == nil)
        #expect(structure("Hausmaus", "de", known: known.union(["hausmaus"]))?.parts == "haus|maus")
        #expect(structure("Elefant", "de", known: known)?.parts == nil)
        // A singular inferred from a name's word ("Biene" → bien) ends no split with an unknown start.
        let inferred = CompoundSplitter(known: ["biene"], inferred: ["bien", "wal"], lang: "de")
        #expect(inferred.parts(of: "amphibien") == ["amphibien"])
        #expect(inferred.parts(of: "blauwal") == ["blauwal"], "blau unknown, wal only inferred")
        #expect(CompoundSplitter(known: ["blau"], inferred: ["wal"], lang: "de").parts(of: "blauwal") == ["blau", "wal"])
        // English splits only the closed compounds its lexicon pairs with a split form.
        #expect(structure("Western honeybee", "en") == NameStructure(head: "bee", parts: "western honey|bee"))
        #expect(structure("Seahorse", "fr")?.parts == nil)
    }

    @Test func headsWithoutStoredStructure() {
        #expect(NameStructure.head(ofFolded: "asian elephant", lang: "en", matchType: "common") == "elephant")
        #expect(NameStructure.head(ofFolded: "puce du chat", lang: "fr", matchType: "common") == "puce")
        #expect(NameStructure.head(ofFolded: "panthera leo", lang: nil, matchType: "scientific") == "panthera", "a scientific name's genus")
    }
}

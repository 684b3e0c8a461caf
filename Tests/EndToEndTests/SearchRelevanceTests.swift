import Foundation
import STOLJSON
import STOLProtocol
import STOLTestSupport
import Testing

/// Whether search finds the organism people mean, over the real binary: the judgment set of the
/// embedded database (`bench/judgments/embedded.tsv`) above its thresholds, and each rule of the
/// ranking on its own (heads, the language asked, the lexicon, variants, partial matches, typos
/// guarded by real words, prominence, group members, autocomplete).
@Suite(.serialized) struct SearchRelevanceTests {
    static let engine = Result { try EngineProcess() }

    /// The lineage of the fixtures' mammals.
    static let mammals = "domain Eukaryota\nkingdom Animalia\nphylum Chordata\nclass Mammalia\n"

    func results(_ query: String, lang: String = "en", limit: Int = 10, engine: EngineProcess? = nil) async throws -> [JSONValue] {
        try await page(query, lang: lang, limit: limit, engine: engine)?["results"]?.arrayValue ?? []
    }

    func page(_ query: String, lang: String = "en", limit: Int = 10, engine: EngineProcess? = nil) async throws -> JSONValue? {
        let target = try engine ?? Self.engine.get()
        return await target.result(SearchQueryRequest(query: query, lang: lang, limit: limit))
    }

    func names(_ results: [JSONValue]) -> [String] { results.compactMap { $0["scientificName"]?.stringValue } }

    /// Top-1, top-3 and MRR over the judgment set must stay at or above what this engine reached
    /// when it was set (top-1 0.940, top-3 0.974, MRR 0.958; `bench/judgments/README.md`), a
    /// little below so that only a regression fails. Judgments whose taxa the database lacks are
    /// pending.
    @Test func judgmentSetStaysAboveItsThresholds() async throws {
        let engine = try Self.engine.get()
        let file = EngineBinary.repositoryRoot.appendingPathComponent("bench/judgments/embedded.tsv")
        let rows = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        var ids: [String: Set<Int64>] = [:]
        for name in Set(rows.flatMap { $0[2].split(separator: "|").map(String.init) }) {
            let found = await engine.result(SearchQueryRequest(query: name, limit: 20))?["results"]?.arrayValue ?? []
            ids[name] = Set(found.filter { $0["scientificName"]?.stringValue == name }.compactMap { $0["id"]?.int64Value })
        }
        var ranks: [Int] = []
        var misses: [String] = []
        for row in rows {
            let right = row[2].split(separator: "|").reduce(into: Set<Int64>()) { $0.formUnion(ids[String($1)] ?? []) }
            guard !right.isEmpty else { continue }
            let found = try await results(row[1], lang: row[0], limit: 10).compactMap { $0["id"]?.int64Value }
            let rank = (found.firstIndex { right.contains($0) } ?? -1) + 1
            ranks.append(rank)
            if rank != 1 { misses.append("\(row[0]) \(row[1]): \(rank)") }
        }
        let n = Double(ranks.count)
        let top1 = Double(ranks.count { $0 == 1 }) / n, top3 = Double(ranks.count { $0 > 0 && $0 <= 3 }) / n
        let mrr = ranks.reduce(0.0) { $0 + ($1 > 0 ? 1 / Double($1) : 0) } / n
        #expect(ranks.count >= 850, "judged \(ranks.count) of \(rows.count)")
        #expect(top1 >= 0.93, "top-1 \(top1); first misses: \(misses.prefix(20))")
        #expect(top3 >= 0.965, "top-3 \(top3)")
        #expect(mrr >= 0.95, "MRR \(mrr)")
    }

    /// The word a name is about comes first: `Wal` finds whales before the whale shark and the
    /// walrus; the cat before its flea; for a typo, the elephant before the elephantfish.
    @Test func headsRankAboveModifiers() async throws {
        let wal = try await results("Wal", lang: "de", limit: 50)
        let blauwal = try #require(wal.firstIndex { $0["scientificName"] == "Balaenoptera musculus" })
        let walhai = try #require(wal.firstIndex { $0["scientificName"] == "Rhincodon typus" })
        #expect(blauwal < 3, "\(names(wal))")
        #expect(blauwal < walhai, "\(names(wal))")
        #expect(wal[blauwal]["matchTier"] == "whole-word", "a compound part is a whole word")
        for (query, lang, meant, notBefore) in [
            ("chat", "fr", "Felis catus", "Ctenocephalides felis"), ("gato", "es", "Felis catus", "Ctenocephalides felis"),
            ("éléphant", "fr", "Loxodonta africana", "Gnathonemus petersii"), ("baleine", "fr", "Balaenoptera musculus", "Rhincodon typus"),
            ("ballena", "es", "Balaenoptera musculus", "Rhincodon typus"), ("Hund", "de", "Canis familiaris", "Rosa canina"),
            ("Katze", "de", "Felis catus", "Ctenocephalides felis"), ("elephant", "en", "Elephas maximus", "Macroscelides proboscideus"),
            // In the typo tier too: a mistyped head before a mistyped modifier.
            ("elefnte", "es", "Elephas maximus", "Gnathonemus petersii"), ("abispa", "es", "Vespula vulgaris", "Argiope bruennichi"),
        ] {
            let found = names(try await results(query, lang: lang, limit: 50))
            let a = try #require(found.firstIndex(of: meant), "\(query): \(found)")
            #expect(found.firstIndex(of: notBefore).map { a < $0 } ?? true, "\(query): \(found)")
            #expect(a < 3, "\(query): \(found)")
        }
    }

    /// The language asked is the language searched; others only when it finds nothing whole, and
    /// the answer says so. Folding accents never carries a word into another language.
    @Test func theLanguageAskedIsSearched() async throws {
        let chene = try await results("chêne", lang: "fr", limit: 20)
        #expect(chene.first?["scientificName"]?.stringValue?.hasPrefix("Quercus") == true, "\(names(chene))")
        #expect(chene.allSatisfy { $0["matchedLang"] == nil || $0["matchedLang"] == "fr" }, "no German diminutives: \(chene.map { $0["matchedName"] ?? .null })")
        let hai = try await results("Hai", lang: "de", limit: 20)
        #expect(hai.allSatisfy { $0["matchedLang"] == nil || $0["matchedLang"] == "de" }, "\(hai.map { $0["matchedName"] ?? .null })")
        let own = try await page("Hai", lang: "de")
        #expect(own?["otherLanguages"] == false)
        // Nothing in English holds `Hund`: the German names answer, and the page says so.
        let hund = try await page("Hund", lang: "en")
        #expect(hund?["otherLanguages"] == true)
        #expect(hund?["results"]?.arrayValue?.first?["matchedLang"] == "de")
        // `Bär` never finds the French "Bar commun" through its folded form.
        let bar = try await results("Bär", lang: "en", limit: 100)
        #expect(!names(bar).contains("Dicentrarchus labrax"), "\(names(bar))")
    }

    /// Child words, clipped words and joined compounds, read through the lexicon.
    @Test func everydayWordsReadThroughTheLexicon() async throws {
        for (query, lang, meant) in [
            ("puppy", "en", "Canis familiaris"), ("kitty", "en", "Felis catus"), ("bunny", "en", "Oryctolagus cuniculus"),
            ("hippo", "en", "Hippopotamus amphibius"), ("Kätzchen", "de", "Felis catus"), ("chiot", "fr", "Canis familiaris"),
            ("gatito", "es", "Felis catus"), ("honeybees", "en", "Apis mellifera"), ("honey bees", "en", "Apis mellifera"),
        ] {
            let found = try await results(query, lang: lang, limit: 3)
            #expect(names(found).contains(meant), "\(query): \(names(found))")
        }
        let puppy = try await results("puppy", lang: "en", limit: 1).first
        #expect(puppy?["readAs"] == "dog" && puppy?["matchedName"] == "Dog" && puppy?["matchType"] == "common", "\(String(describing: puppy))")
        // Clipped words also start a head: `rhino` finds the rhinoceroses first.
        let rhino = try await results("rhino", lang: "en", limit: 3)
        #expect(rhino.allSatisfy { ($0["matchedName"]?.stringValue ?? "").lowercased().contains("rhinoceros") }, "\(names(rhino))")
    }

    /// A word of the language is never corrected into another; unknown words still are.
    @Test func typosAreGuardedByRealWords() async throws {
        for (query, lang, wrong) in [("puppy", "en", "Papaver rhoeas"), ("kitty", "en", "Craseonycteris thonglongyai"), ("bunny", "en", "Boletus edulis"),
                                     ("pony", "en", "Trachemys scripta"), ("Schaf", "de", "Blattella germanica"), ("gallina", "es", "Balaenoptera musculus")] {
            let found = try await page(query, lang: lang, limit: 20)
            let answered = names(found?["results"]?.arrayValue ?? [])
            #expect(!answered.contains(wrong), "\(query)")
            #expect(found?["results"]?.arrayValue?.contains { $0["matchTier"] == "fuzzy" } != true, "\(query): no typo of a real word")
        }
        let typo = try await page("elefnt", lang: "en")
        #expect(typo?["fuzzy"] == true && typo?["results"]?.arrayValue?.isEmpty == false)
        // Of a taxon's names as close to a typo, the asked language's answers (not the Spanish
        // "Libélula deprimida" for a French child's `libelule`).
        let libellule = try #require(try await results("libelule", lang: "fr").first)
        #expect(libellule["matchedLang"] == "fr" && libellule["matchTier"] == "fuzzy", "\(libellule)")
        // A word of another language is no typo: `elefant` finds the German names.
        let german = try await page("elefant", lang: "en")
        #expect(german?["fuzzy"] == false && german?["otherLanguages"] == true)
    }

    /// Spellings, hyphens, spaces and closed compounds; and partial matches when no taxon holds
    /// every word.
    @Test func variantsAndPartialMatches() async throws {
        for (query, meant) in [("gray wolf", "Canis lupus"), ("grey whale", "Eschrichtius robustus"), ("sea horse", "Hippocampus"),
                               ("blue footed booby", "Sula nebouxii"), ("redeyed treefrog", "Agalychnis callidryas"),
                               ("harbour seal", "Phoca vitulina")] {
            #expect(names(try await results(query, limit: 3)).contains(meant), "\(query)")
        }
        let raccoon = try await page("spotted raccoon")
        #expect(raccoon?["partial"] == true)
        let first = raccoon?["results"]?.arrayValue?.first
        #expect(first?["scientificName"] == "Procyon lotor" && first?["matchTier"] == "partial", "\(String(describing: first))")
        // Every word found together is no partial match.
        #expect(try await page("polar bear")?["partial"] == false)
    }

    /// Prominence orders a tier, viruses and samples go below organisms, a group's best-known
    /// matching members follow it, and autocomplete ranks by the same score.
    @Test func prominenceGroupsAndAutocomplete() async throws {
        let database = try Fixtures.buildDatabase(Self.mammals + """
            order Carnivora
            family Ursidae
              name en Bears
            genus Ursus
            species Ursus maritimus
              name en Polar bear
              name de Eisbär
              name fr Ours polaire
              name es Oso polar
            species Ursus arctos
              name en Brown bear
              name de Braunbär
            genus Tremarctos
            species Tremarctos ornatus
              name en Spectacled bear
            family Felidae
              name en Cats
            genus Felis
            species Felis margarita
              name en Sand cat
            species Felis catus
              name en Domestic cat
              trait domestic: yes
            species Felis chaus
              name en Jungle cat
            genus Panthera
            species Panthera leo
              name en Lion
              name de Löwe
              name fr Lion
              name es León
            order Tardigrada
            family Milnesiidae
            genus Milnesium
            species Milnesium tardigradum
              name en Water bear
            domain Viruses
            kingdom Orthornavirae
            phylum Pisuviricota
            class Pisoniviricetes
            order Nidovirales
            family Coronaviridae
            genus Alphacoronavirus
            species Bear alphacoronavirus
            domain Bacteria
            phylum Bacillota
            class Bacilli
            order Lactobacillales
            family Streptococcaceae
            genus Lactococcus
            species Lactococcus lactis
            """)
        let engine = try EngineProcess(["--database", database.path])
        let cat = try await results("cat", engine: engine)
        #expect(Array(names(cat).prefix(2)) == ["Felidae", "Felis catus"], "the group, then its best-known member (domestic): \(names(cat))")
        let bear = try await results("bear", engine: engine)
        #expect(names(bear).first == "Ursidae", "\(names(bear))")
        // The group's members follow it, best known first, before the tardigrade.
        #expect(Array(names(bear).prefix(4)) == ["Ursidae", "Ursus maritimus", "Ursus arctos", "Tremarctos ornatus"], "\(names(bear))")
        // The virus is a whole-word match, below every organism.
        #expect(names(bear).last == "Bear alphacoronavirus", "\(names(bear))")
        let scores = bear.compactMap { $0["relevanceScore"]?.doubleValue }
        #expect(scores == scores.sorted(by: >) && Set(scores).count == scores.count, "scores fall strictly: \(scores)")
        // Autocomplete: the best-known first.
        let suggestions = await engine.result(SearchAutocompleteRequest(prefix: "b", limit: 3))?["suggestions"]?.arrayValue ?? []
        #expect(!suggestions.contains { $0["text"] == "Bear alphacoronavirus" }, "\(suggestions)")
        // `l`: the lion, named in four languages, before the bacterium *Lactococcus lactis*; both word starts.
        let lSuggestions = (await engine.result(SearchAutocompleteRequest(prefix: "l", limit: 10))?["suggestions"]?.arrayValue ?? [])
            .compactMap { $0["scientificName"]?.stringValue }
        let lion = try #require(lSuggestions.firstIndex(of: "Panthera leo"), "\(lSuggestions)")
        let lactis = try #require(lSuggestions.firstIndex(of: "Lactococcus lactis"), "\(lSuggestions)")
        #expect(lion < lactis, "\(lSuggestions)")
        let embedded = try Self.engine.get()
        let l = (await embedded.result(SearchAutocompleteRequest(prefix: "l", limit: 20))?["suggestions"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }
        #expect(l.contains("Lion"), "\(l)")
    }

    /// A species the bundled encyclopedia describes is better known than its peers in a database
    /// built from other checklists: `dolphin` finds the bottlenose dolphin first, not the shortest
    /// name; the fixture's own organisms (none bundled) keep their order.
    @Test func bundledSpeciesAreBetterKnownElsewhere() async throws {
        let database = try Fixtures.buildDatabase(Self.mammals + """
            order Artiodactyla
            family Delphinidae
              name en Oceanic dolphins
            genus Sotalia
            species Sotalia fluviatilis
              name en Gray dolphin
            genus Stenella
            species Stenella longirostris
              name en Spinner dolphin
            genus Lagenorhynchus
            species Lagenorhynchus obscurus
              name en Dusky dolphin
            genus Tursiops
            species Tursiops truncatus
              name en Common bottlenose dolphin
            """)
        let engine = try EngineProcess(["--database", database.path])
        let dolphin = names(try await results("dolphin", engine: engine))
        #expect(dolphin.first == "Tursiops truncatus", "\(dolphin)")
        #expect(Array(dolphin.filter { $0 != "Tursiops truncatus" && $0 != "Delphinidae" }.prefix(3))
                    == ["Sotalia fluviatilis", "Lagenorhynchus obscurus", "Stenella longirostris"], "shorter names first among the rest: \(dolphin)")
    }

    /// A group holding most of the organisms a word names is the word's kind, though its name says
    /// more ("Marine dolphins"): it comes before them, after a member known far better (the domestic
    /// cat), and not when a child of it holds most of them (the pines lie in *Pinus*, unnamed: the
    /// "Pine family" is no kind of pine).
    @Test func aGroupHoldingMostOfAWordsOrganismsIsItsKind() async throws {
        let database = try Fixtures.buildDatabase(Self.mammals + """
            order Artiodactyla
            family Delphinidae
              name en Marine dolphins
            genus Delphinus
            species Delphinus delphis
              name en Saddleback dolphin
            genus Stenella
            species Stenella longirostris
              name en Spinner dolphin
            genus Lagenorhynchus
            species Lagenorhynchus obscurus
              name en Dusky dolphin
            family Platanistidae
            genus Platanista
            species Platanista gangetica
              name en Ganges river dolphin
            order Carnivora
            family Felidae
              name en Cat family
            genus Felis
            species Felis catus
              name en Domestic cat
              trait domestic: yes
            species Felis margarita
              name en Sand cat
            genus Prionailurus
            species Prionailurus bengalensis
              name en Leopard cat
            genus Otocolobus
            species Otocolobus manul
              name en Pallas's cat
            kingdom Plantae
            phylum Tracheophyta
            class Pinopsida
            order Pinales
            family Pinaceae
              name en Pine family
            genus Pinus
            species Pinus sylvestris
              name en Scots pine
            species Pinus nigra
              name en Black pine
            species Pinus pinea
              name en Stone pine
            genus Larix
            species Larix decidua
              name en European larch
            """)
        let engine = try EngineProcess(["--database", database.path])
        let dolphin = names(try await results("dolphin", engine: engine))
        #expect(dolphin.first == "Delphinidae", "\(dolphin)")
        let cat = names(try await results("cat", engine: engine))
        #expect(Array(cat.prefix(2)) == ["Felis catus", "Felidae"], "\(cat)")
        let pine = names(try await results("pine", engine: engine))
        // No kind: the family follows the pines people know (the Scots and stone pines, which the
        // bundled database describes), ranked by its best-known member as any group is.
        #expect(pine.first?.hasPrefix("Pinus ") == true && pine.firstIndex(of: "Pinaceae").map { $0 >= 2 } ?? true, "\(pine)")
    }

    /// A group named by the word alone that holds organisms the word names comes before every
    /// organism the word names with more words, its own or not: "Moles" before a golden mole known
    /// in more languages than the European mole; a group named so that holds none of them ("Pine &
    /// spruce aphids" for `pine`) does not.
    @Test func aGroupNamedByTheWordComesBeforeTheOrganismsItNames() async throws {
        let database = try Fixtures.buildDatabase(Self.mammals + """
            order Eulipotyphla
            family Talpidae
              name en Moles
            genus Talpa
            species Talpa europaea
              name en European mole
            order Afrosoricida
            family Chrysochloridae
            genus Amblysomus
            species Amblysomus hottentotus
              name en Hottentot golden mole
              name de Hottentotten-Goldmull
              name fr Taupe dorée
              name es Topo dorado
            kingdom Plantae
            phylum Tracheophyta
            class Pinopsida
            order Pinales
            family Pinaceae
            genus Pinus
            species Pinus sylvestris
              name en Scots pine
              name de Waldkiefer
              name fr Pin sylvestre
            kingdom Animalia
            phylum Arthropoda
            class Insecta
            order Hemiptera
            family Adelgidae
              name en Pine & spruce aphids
            genus Pineus
            species Pineus strobi
              name en Pine bark adelgid
            """)
        let engine = try EngineProcess(["--database", database.path])
        let mole = names(try await results("mole", engine: engine))
        #expect(Array(mole.prefix(2)) == ["Talpidae", "Talpa europaea"], "\(mole)")
        let pine = names(try await results("pine", engine: engine))
        #expect(pine.first == "Pinus sylvestris", "\(pine)")
    }

    /// A language that names its groups with learned words ("Anatidés") finds the group a word
    /// means through the organisms the word names: what English calls most of them ("Mandarin
    /// duck", "Muscovy duck"), a group named by that word alone ("Ducks, geese and swans"), read as
    /// the English word; a name of the language that is the word itself still comes first (`chat`).
    @Test func learnedGroupNamesAreFoundThroughTheirOrganisms() async throws {
        let database = try Fixtures.buildDatabase("""
            domain Eukaryota
            kingdom Animalia
            phylum Chordata
            class Aves
            order Anseriformes
            family Anatidae
              name en Ducks, geese and swans
              name fr Anatidés
            genus Anas
            species Anas platyrhynchos
              name en Mallard
              name fr Canard colvert
            genus Aix
            species Aix galericulata
              name en Mandarin duck
              name fr Canard mandarin
            genus Cairina
            species Cairina moschata
              name en Muscovy duck
              name fr Canard de Barbarie
            class Mammalia
            order Carnivora
            family Felidae
              name en Cats
              name fr Félidés
            genus Felis
            species Felis catus
              name en Domestic cat
              name fr Chat
            species Felis silvestris
              name en Wildcat
              name fr Chat sauvage
            order Artiodactyla
            family Suidae
            genus Sus
            species Sus domesticus
              name en Pig
              name fr Cochon
            order Tubulidentata
            family Orycteropodidae
              name en Aardvarks
            genus Orycteropus
            species Orycteropus afer
              name en Aardvark
              name fr Cochon de terre
            """)
        let engine = try EngineProcess(["--database", database.path])
        // Organisms whose English names share no head (the pig, the aardvark) read as nothing.
        let cochon = names(try await results("cochon", lang: "fr", engine: engine))
        #expect(cochon.first == "Sus domesticus" && !cochon.contains("Orycteropodidae"), "\(cochon)")
        let canard = try await results("canard", lang: "fr", engine: engine)
        #expect(canard.first?["scientificName"] == "Anatidae" && canard.first?["readAs"] == "duck", "\(canard)")
        #expect(names(canard).dropFirst().first?.contains(" ") == true, "its members follow: \(names(canard))")
        let chat = names(try await results("chat", lang: "fr", engine: engine))
        #expect(chat.first == "Felis catus", "\(chat)")
        // In English the word finds the group by its own name: nothing is read.
        let duck = try await results("duck", engine: engine)
        #expect(duck.first?["scientificName"] == "Anatidae" && duck.first?["readAs"] == nil, "\(duck)")
    }

    /// A prefix typed without capitals is a word of the language: short prefixes suggest the names
    /// people use before scientific names, however well known their taxa (`ca`: Cat, not *Capra
    /// hircus*); with a capital, scientific names rank as before.
    @Test func shortPrefixesSuggestNamesOfTheLanguage() async throws {
        let engine = try Self.engine.get()
        func suggest(_ prefix: String, _ lang: String = "en") async -> [JSONValue] {
            await engine.result(SearchAutocompleteRequest(prefix: prefix, limit: 10, lang: lang))?["suggestions"]?.arrayValue ?? []
        }
        for (prefix, lang, name) in [("ca", "en", "Cat"), ("ca", "es", "Caballo"), ("c", "fr", "Chat")] {
            let found = await suggest(prefix, lang)
            let texts = found.compactMap { $0["text"]?.stringValue }
            #expect(Array(found.prefix(5)).allSatisfy { $0["matchType"] == "common" }, "\(prefix) (\(lang)): \(texts)")
            #expect(texts.contains(name), "\(prefix) (\(lang)): \(texts)")
        }
        let lower = await suggest("pan").compactMap { $0["text"]?.stringValue }
        #expect(lower.first != "Pan" && lower.contains("Giant panda"), "\(lower)")
        let capital = await suggest("Pan").compactMap { $0["text"]?.stringValue }
        #expect(capital.first == "Pan", "\(capital)")
    }

    /// A database of the specification's tables alone gets heads and prominence at import, and
    /// ranks by them: "Blauwal" before "Walhai" needs the compound split.
    @Test func importBuildsTheRankingTables() async throws {
        let source = try Fixtures.buildDatabase(Self.mammals + """
            order Artiodactyla
            family Balaenopteridae
            genus Balaenoptera
            species Balaenoptera musculus
              name de Blauwal
            class Elasmobranchii
            order Orectolobiformes
            family Rhincodontidae
            genus Rhincodon
            species Rhincodon typus
              name de Walhai
            """)
        try HostileFiles.sqlite(source, HostileFiles.dropExtensions + "VACUUM;")
        #expect(try EmbeddedDatabaseTests.query("SELECT count(*) FROM sqlite_master WHERE name IN ('name_heads', 'taxon_prominence')", source).first == "0")
        let importer = try await ReferenceTests.importing(source, name: "ranking")
        let wal = try await results("Wal", lang: "de", engine: importer)
        #expect(names(wal) == ["Balaenoptera musculus", "Rhincodon typus"], "\(names(wal))")
    }
}

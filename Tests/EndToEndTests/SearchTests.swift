import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import Testing

/// `search/query` and `search/autocomplete` over the real binary on the embedded database.
@Suite(.serialized) struct SearchTests {
    /// Query → expected top result (scientific name), across languages, synonyms and names.
    static let topResults: [(String, String)] = [
        ("lion", "Panthera leo"), ("Panthera leo", "Panthera leo"), ("tiger", "Panthera tigris"), ("Tigre", "Panthera tigris"),
        ("Löwe", "Panthera leo"), ("lowe", "Panthera leo"), ("león", "Panthera leo"), ("LEON", "Panthera leo"),
        ("house sparrow", "Passer domesticus"), ("Passer domesticus", "Passer domesticus"), ("chimpanzee", "Pan troglodytes"),
        ("blue whale", "Balaenoptera musculus"), ("Balaenoptera musculus", "Balaenoptera musculus"), ("giraffe", "Giraffa camelopardalis"),
        ("polar bear", "Ursus maritimus"), ("koala", "Phascolarctos cinereus"), ("platypus", "Ornithorhynchus anatinus"),
        ("red fox", "Vulpes vulpes"), ("wolf", "Canis lupus"), ("Canis lupus", "Canis lupus"), ("dog", "Canis familiaris"),
        ("cat", "Felis catus"), ("honey bee", "Apis mellifera"), ("monarch butterfly", "Danaus plexippus"),
        ("great white shark", "Carcharodon carcharias"), ("E. coli", "Escherichia coli"), ("Escherichia coli", "Escherichia coli"),
        ("baker's yeast", "Saccharomyces cerevisiae"), ("sunflower", "Helianthus annuus"), ("fly agaric", "Amanita muscaria"),
        ("malaria parasite", "Plasmodium falciparum"), ("tardigrade", "Tardigrada"), ("emperor penguin", "Aptenodytes forsteri"),
        ("bald eagle", "Haliaeetus leucocephalus"), ("barn owl", "Tyto alba"), ("peregrine falcon", "Falco peregrinus"),
        ("ostrich", "Struthio camelus"), ("dodo", "Raphus cucullatus"), ("thylacine", "Thylacinus cynocephalus"),
        ("komodo dragon", "Varanus komodoensis"), ("axolotl", "Ambystoma mexicanum"), ("goldfish", "Carassius auratus"),
        ("coelacanth", "Latimeria chalumnae"), ("Felis leo", "Panthera leo"), ("Bacillus coli", "Escherichia coli"),
        ("Ginkgo biloba", "Ginkgo biloba"), ("maize", "Zea mays"), ("rice", "Oryza sativa"), ("potato", "Solanum tuberosum"),
        ("Homo sapiens", "Homo sapiens"), ("human", "Homo sapiens"), ("orca", "Orcinus orca"), ("cheetah", "Acinonyx jubatus"),
        ("jaguar", "Panthera onca"), ("snow leopard", "Panthera uncia"), ("Pez león", "Pterois volitans"),
        ("manchot empereur", "Aptenodytes forsteri"), ("perro", "Canis familiaris"), ("tiger shark", "Galeocerdo cuvier"),
        ("leo lion", "Panthera leo"), ("elephant", "Elephantidae"), ("kangaroo", "Macropodidae"),
    ]

    static let engine = Result { try EngineProcess() }

    func search(_ query: String, _ extra: [(key: String, value: JSONValue)] = []) async throws -> JSONValue? {
        try await Self.engine.get().call(SearchQueryRequest.self, params: .object([("query", .string(query))] + extra))
    }

    func names(_ response: JSONValue?) -> [String] {
        response?["result"]?["results"]?.arrayValue?.compactMap { $0["scientificName"]?.stringValue } ?? []
    }

    /// Query → expected result within the first `within` results (1 unless the query is
    /// rightly ambiguous, like `wolves`, whose family "Dogs, wolves and foxes" comes first):
    /// plurals, misspellings, compounds, accents and case, in English, Spanish, French and German.
    static let moreResults: [(query: String, expected: String, within: Int)] = [
        // "Kangaroos and wallabies" is named by the word alone: the family, then its best-known members.
        ("kangaroo", "Osphranter rufus", 3),
        // English plurals, regular and irregular.
        ("tigers", "Panthera tigris", 1), ("wolves", "Canis lupus", 3), ("mice", "Mus musculus", 3), ("lions", "Panthera leo", 1),
        ("giraffes", "Giraffa camelopardalis", 3), ("elephants", "Elephantidae", 1), ("foxes", "Vulpes vulpes", 3),
        ("geese", "Branta canadensis", 3), ("penguins", "Spheniscidae", 2), ("bees", "Apidae", 1), ("owls", "Strigidae", 2),
        ("bats", "Chiroptera", 1), ("whales", "Balaenoptera musculus", 6), ("elephant", "Elephas maximus", 3), ("dolphins", "Tursiops truncatus", 3),
        ("kangaroos", "Osphranter rufus", 3), ("koalas", "Phascolarctos cinereus", 1), ("cheetahs", "Acinonyx jubatus", 1),
        ("house mice", "Mus musculus", 1), ("polar bears", "Ursus maritimus", 1), ("red foxes", "Vulpes vulpes", 1),
        ("honey bees", "Apis mellifera", 1), ("blue whales", "Balaenoptera musculus", 1), ("wolf spiders", "Lycosidae", 1),
        ("spiders", "Araneae", 1), ("ants", "Formicidae", 1), ("oaks", "Quercus robur", 2),
        // English misspellings.
        ("rinoceros", "Rhinoceros", 1), ("hipopotamus", "Hippopotamus amphibius", 1), ("crocodle", "Crocodylus niloticus", 3),
        ("pengiun", "Aptenodytes patagonicus", 3), ("cheeta", "Acinonyx jubatus", 1), ("leopord", "Panthera pardus", 1),
        ("hedgehogg", "Erinaceus europaeus", 1), ("squirel", "Sciurus vulgaris", 3), ("octopuss", "Octopus", 3),
        ("jellyfsh", "Aurelia aurita", 3), ("butterfy", "Danaus plexippus", 3), ("flamingo", "Phoenicopterus roseus", 3),
        ("ladybird", "Coccinella septempunctata", 3), ("mushroom", "Agaricus bisporus", 3),
        // Spanish. A word whose plural is a group's everyday name finds the group first and its
        // best-known member next, as `Igel` finds Erinaceidae (`zorro`: Vulpes "Zorros", `abeja`: Apidae).
        ("león", "Panthera leo", 1), ("leones", "Panthera leo", 1), ("tiburón blanco", "Carcharodon carcharias", 1),
        ("tiburon ballena", "Rhincodon typus", 1), ("oso polar", "Ursus maritimus", 1), ("ballena azul", "Balaenoptera musculus", 1),
        ("zorro", "Vulpes vulpes", 2), ("lobo", "Canis lupus", 1), ("lobos", "Canis lupus", 1), ("perros", "Canis familiaris", 1),
        ("gato", "Felis catus", 2), ("águila real", "Aquila chrysaetos", 1), ("aguila real", "Aquila chrysaetos", 1),
        ("erizo europeo", "Erinaceus europaeus", 1), ("jirafa", "Giraffa camelopardalis", 1), ("elefante asiático", "Elephas maximus", 1),
        ("colibrí", "Archilochus colubris", 3), ("pingüino emperador", "Aptenodytes forsteri", 1),
        ("pinguino emperador", "Aptenodytes forsteri", 1), ("mariposa monarca", "Danaus plexippus", 1), ("abeja", "Apis mellifera", 2),
        ("pulpo", "Octopus vulgaris", 3), ("conejo", "Oryctolagus cuniculus", 1), ("cocotero", "Cocos nucifera", 1),
        ("girasol", "Helianthus annuus", 1), ("tucan", "Ramphastos toco", 3), ("gorila", "Gorilla gorilla", 2),
        // French.
        ("renard roux", "Vulpes vulpes", 1), ("loup", "Canis lupus", 1), ("loups", "Canis lupus", 1), ("ours polaire", "Ursus maritimus", 1),
        ("ours brun", "Ursus arctos", 1), ("baleine bleue", "Balaenoptera musculus", 1), ("requin-baleine", "Rhincodon typus", 1),
        ("requin baleine", "Rhincodon typus", 1), ("hérisson", "Erinaceus europaeus", 2), ("herisson", "Erinaceus europaeus", 2),
        ("aigle royal", "Aquila chrysaetos", 1), ("aigles royaux", "Aquila chrysaetos", 1), ("flamant rose", "Phoenicopterus roseus", 1),
        ("abeille", "Apis mellifera", 2), ("tournesol", "Helianthus annuus", 1), ("pissenlit", "Taraxacum officinale", 1),
        ("éléphant d'Asie", "Elephas maximus", 1), ("elephant d asie", "Elephas maximus", 1), ("grenouille rieuse", "Pelophylax ridibundus", 1),
        ("coccinelle", "Coccinella septempunctata", 3),
        // German: compounds, umlauts, plurals.
        ("Hund", "Canis familiaris", 1), ("Hunde", "Canidae", 1), ("Haushund", "Canis familiaris", 1), ("Fuchs", "Vulpes vulpes", 1), ("Rotfuchs", "Vulpes vulpes", 1),
        ("Füchse", "Vulpes vulpes", 1), ("Bär", "Ursidae", 1), ("Eisbär", "Ursus maritimus", 1), ("Eisbären", "Ursus maritimus", 1),
        ("eisbar", "Ursus maritimus", 1), ("Braunbär", "Ursus arctos", 1), ("Wolf", "Canis lupus", 1), ("Wölfe", "Canis lupus", 2),
        ("Löwen", "Panthera leo", 1), ("Katze", "Felis catus", 1), ("Katzen", "Felidae", 1), ("Hauskatze", "Felis catus", 1), ("Igel", "Erinaceidae", 1),
        ("Elster", "Pica pica", 1), ("Steinadler", "Aquila chrysaetos", 1), ("Walhai", "Rhincodon typus", 1),
        ("Blauwal", "Balaenoptera musculus", 1), ("Pinguin", "Spheniscidae", 2), ("Kaiserpinguin", "Aptenodytes forsteri", 1),
        ("Goldfisch", "Carassius auratus", 1), ("Goldfische", "Carassius auratus", 1), ("Schmetterling", "Lepidoptera", 1),
        ("Honigbiene", "Apis mellifera", 1), ("Maulwurf", "Talpa europaea", 3), ("Seehund", "Phoca vitulina", 1),
        ("Kartoffelkäfer", "Leptinotarsa decemlineata", 1), ("Löwenzahn", "Taraxacum officinale", 1), ("Elefant", "Elephas maximus", 3),
        ("Elefanten", "Elephantidae", 1), ("Giraffe", "Giraffa camelopardalis", 1), ("Nashorn", "Rhinocerotidae", 1),
        // Farm animals, crops and famous extinct organisms, in the four languages (issue 35).
        ("horse", "Equus caballus", 1), ("caballo", "Equus caballus", 1), ("cheval", "Equus caballus", 1), ("Pferd", "Equus caballus", 1),
        ("chicken", "Gallus gallus domesticus", 1), ("Huhn", "Gallus gallus domesticus", 1), ("poule", "Gallus gallus domesticus", 1),
        ("Ziege", "Capra hircus", 1), ("goat", "Capra hircus", 1), ("sheep", "Ovis aries", 1), ("oveja", "Ovis aries", 1),
        ("pig", "Sus domesticus", 1), ("cerdo", "Sus domesticus", 1), ("donkey", "Equus asinus", 1), ("cow", "Bos taurus", 1),
        ("Kuh", "Bos taurus", 1), ("pear", "Pyrus communis", 1), ("banana", "Musa acuminata", 1), ("dinosaur", "Dinosauria", 1),
        ("Dinosaurier", "Dinosauria", 1), ("dinosaurio", "Dinosauria", 1), ("dinosaure", "Dinosauria", 1),
        ("t rex", "Tyrannosaurus rex", 1), ("triceratops", "Triceratops horridus", 1), ("mammoth", "Mammuthus primigenius", 1),
        // Case, lower-cased scientific names and typos in epithets.
        ("TIGER", "Panthera tigris", 1), ("pAnThErA lEo", "Panthera leo", 1), ("homo SAPIENS", "Homo sapiens", 1),
        ("GOLDFISH", "Carassius auratus", 1), ("panthera tigris", "Panthera tigris", 1), ("canis lupus", "Canis lupus", 1),
        ("vulpes vulpes", "Vulpes vulpes", 1), ("ursus arctos", "Ursus arctos", 1), ("apis mellifera", "Apis mellifera", 1),
        ("Panthera tigirs", "Panthera tigris", 1), ("Ursus maritimes", "Ursus maritimus", 1), ("Vulpes vulpse", "Vulpes vulpes", 1),
        ("Carcharodon carcharis", "Carcharodon carcharias", 1), ("Orcinus orka", "Orcinus orca", 1),
    ]

    @Test func topResultTable() async throws {
        #expect(Self.topResults.count + Self.moreResults.count >= 150)
        for (query, expected) in Self.topResults {
            let top = names(try await search(query, [("limit", 5)])).first
            #expect(top == expected, "\(query)")
        }
        for (query, expected, within) in Self.moreResults {
            let found = names(try await search(query, [("limit", .number(String(within)))]))
            #expect(found.contains(expected), "\(query) → \(expected) within \(within): \(found)")
        }
    }

    @Test func queryForms() async throws {
        // A bare word is a prefix.
        let genera = names(try await search("panth", [("rank", "genus")]))
        #expect(Array(genera.prefix(2)) == ["Panthera", "Pantherophis"])
        #expect(names(try await search("panth")).contains("Panthera leo"))
        // Several words must all match, across names; when none holds them all, the answer is partial.
        let both = try await search("leo lion")
        #expect(names(both).first == "Panthera leo" && both?["result"]?["partial"] == false)
        let some = try await search("leo zzzzzz")
        #expect(some?["result"]?["partial"] == true)
        #expect(some?["result"]?["results"]?.arrayValue?.allSatisfy { $0["matchTier"] == "partial" } == true)
        // A quoted phrase must match as a phrase.
        let phrase = names(try await search("\"tree frog\""))
        #expect(phrase.contains("Hyla arborea"))
        let loose = names(try await search("frog tree", [("limit", 100)]))
        #expect(Set(phrase).isSubset(of: Set(loose)))
        // The exact name ranks first, and says what matched.
        let exact = try await search("Lion")
        let first = exact?["result"]?["results"]?.arrayValue?.first
        #expect(first?["matchedName"] == "Lion" && first?["matchType"] == "common")
        #expect(first?["preferredCommonName"] == "Lion")
        let synonym = try await search("Felis leo")
        #expect(synonym?["result"]?["results"]?.arrayValue?.first?["matchType"] == "synonym")
        // preferredCommonName follows lang, with English fallback.
        let spanish = try await search("Panthera leo", [("lang", "es")])
        #expect(spanish?["result"]?["results"]?.arrayValue?.first?["preferredCommonName"] == "León")
        let klingon = try await search("Panthera leo", [("lang", "tlh")])
        #expect(klingon?["result"]?["results"]?.arrayValue?.first?["preferredCommonName"] == "Lion")
    }

    @Test func userTextNeverReachesFTS5AsSyntax() async throws {
        let hostile = [
            "\"", "\"\"", "\"lion", "lion\"", "*", "lion*", "-lion", "^lion", "(lion", "lion)", "()", "AND", "OR", "NOT",
            "lion AND tiger", "lion OR tiger", "NOT lion", "NEAR(lion tiger)", "lion NEAR tiger", "scientific_name:leo",
            "{scientific_name}:leo", "common_names : lion", "'", "lion'", "\\", "%", "_", "a\u{0}b", "😀", "+++", ":", "^",
            "\"unbalanced quote", "a\"b\"c\"d", "SELECT * FROM taxa", "lion; DROP TABLE taxa",
        ]
        for query in hostile {
            let response = try await search(query)
            #expect(response?["error"] == nil, "\(query): \(String(describing: response?["error"]))")
            #expect(response?["result"]?["results"]?.arrayValue != nil, "\(query)")
        }
        #expect(names(try await search("\"lion")).first == "Panthera leo", "an unbalanced quote is ignored")
        #expect(names(try await search("lion)")).first == "Panthera leo", "punctuation is text")
        #expect(try await Self.engine.get().result(PingRequest()) == .object([]), "still serving")
    }

    @Test func emptyBlankAndOverlongQueries() async throws {
        for blank in ["", "   ", "\t\n", "\"\"", "***"] {
            let response = try await search(blank)
            #expect(response?["result"]?["results"] == .array([]), "\(blank.debugDescription)")
        }
        let long = try await search(String(repeating: "a", count: 201))
        #expect(long?["error"]?["code"] == .number("-32602"))
        #expect(long?["error"]?["data"]?["field"] == "query")
        let missing = try await Self.engine.get().call(SearchQueryRequest())
        #expect(missing?["error"]?["data"]?["field"] == "query")
    }

    @Test func typosAtTheStartMiddleAndEnd() async throws {
        let cases: [(String, String, Int)] = [
            ("Pnathera leo", "Panthera leo", 1),  // start (transposition)
            ("lyon", "Panthera leo", 1),  // middle, short query
            ("elefant", "Elephas maximus", 2),  // middle, two edits... or a Spanish prefix
            ("Panthera lep", "Panthera leo", 1),  // end
            ("girafe", "Giraffa camelopardalis", 1),
            ("chimpanze", "Pan troglodytes", 1),
            ("platipus", "Ornithorhynchus anatinus", 1),
            ("sparow", "Passer domesticus", 1),
            ("Xanthera leo", "Panthera leo", 1),  // first letter
        ]
        for (query, expected, maxDistance) in cases {
            let results = try await search(query, [("limit", 5)])?["result"]?["results"]?.arrayValue ?? []
            let hit = results.first { $0["scientificName"]?.stringValue == expected }
            #expect(hit != nil, "\(query) → \(expected): \(results.map { $0["scientificName"] })")
            if hit?["matchType"] == "fuzzy" {
                #expect((hit?["editDistance"]?.int64Value ?? 99) <= Int64(maxDistance), "\(query)")
            }
        }
        // Short queries allow one edit only; long ones two.
        #expect(names(try await search("lxyn")).contains("Panthera leo") == false)
        // Too far for a typo: only a partial match, through the word typed right.
        let tooFar = try await search("Pxnxhxra leo")
        #expect(tooFar?["result"]?["fuzzy"] == false && tooFar?["result"]?["partial"] == true)
        #expect(try await search("lyon")?["result"]?["fuzzy"] == true)
        #expect(try await search("lion")?["result"]?["fuzzy"] == false)
    }

    @Test func rankAndConservationFilters() async throws {
        let genera = try await search("panthera", [("rank", "genus")])
        #expect(names(genera) == ["Panthera"])
        let endangered = try await search("panthera", [("conservation", "EN")])?["result"]?["results"]?.arrayValue ?? []
        #expect(!endangered.isEmpty)
        #expect(endangered.allSatisfy { $0["conservationStatus"] == "EN" })
        #expect(endangered.contains { $0["scientificName"] == "Panthera tigris" })
        let species = try await search("bear", [("rank", "species"), ("limit", 100)])?["result"]?["results"]?.arrayValue ?? []
        #expect(species.allSatisfy { $0["rank"] == "species" })
        let bad = try await search("lion", [("rank", "tribe")])
        #expect(bad?["error"]?["data"]?["field"] == "rank")
    }

    @Test func pagingNeverRepeatsOrSkips() async throws {
        let all = names(try await search("a", [("limit", 1000)]))
        #expect(all.count > 100)
        var paged: [String] = []
        var ids: [Int64] = []
        var cursor: JSONValue? = nil
        repeat {
            var params: [(key: String, value: JSONValue)] = [("limit", 37)]
            if let cursor { params.append(("cursor", cursor)) }
            let response = try await search("a", params)?["result"]
            paged += names(.object(["result": response ?? .null]))
            ids += response?["results"]?.arrayValue?.compactMap { $0["id"]?.int64Value } ?? []
            cursor = response?["nextCursor"]
        } while cursor != nil && paged.count < 5000
        #expect(Set(ids).count == ids.count, "no duplicates")
        #expect(paged == all, "the pages concatenate to the full list")
        let byOffset = names(try await search("a", [("limit", 10), ("offset", 20)]))
        #expect(byOffset == Array(all[20..<30]))
        #expect(try await search("a", [("cursor", "nonsense")])?["error"]?["data"]?["field"] == "cursor")
        #expect(try await search("a", [("limit", 1001)])?["error"]?["data"]?["field"] == "limit")
    }

    /// A search result shows its taxon as `taxon/get` does (preferred name in the requested
    /// language, rank, status, homonym disambiguation), whether the search read it or took it from
    /// the taxa shown before: one engine searches first, the other reads the same taxa through
    /// `taxon/get` first and then searches.
    @Test func resultsShowTaxaAsTaxonGetDoes() async throws {
        let searchedFirst = try EngineProcess(), readFirst = try EngineProcess()
        let shown = ["preferredCommonName", "preferredCommonNameLang", "disambiguation", "scientificName", "rank", "status", "conservationStatus"]
        var compared = 0, disambiguated = 0
        for lang in ["en", "es", "de"] {
            for query in ["lion", "red fox", "Morus", "bear", "Panthera"] {
                let params = SearchQueryRequest(query: query, lang: lang, limit: 20)
                let cold = await searchedFirst.result(params)
                let results = cold?["results"]?.arrayValue ?? []
                #expect(!results.isEmpty, "\(query) in \(lang)")
                for result in results {
                    let taxon = await readFirst.result(TaxonGetRequest(id: result["id"]?.int64Value ?? 0, lang: lang))
                    for key in shown { #expect(result[key] == taxon?[key], "\(key) of \(result["id"]?.int64Value ?? 0) for \(query) in \(lang)") }
                    if result["disambiguation"] != nil { disambiguated += 1 }
                    compared += 1
                }
                #expect(await searchedFirst.result(params) == cold, "again, from the cache: \(query) in \(lang)")
                #expect(await readFirst.result(params) == cold, "after taxon/get: \(query) in \(lang)")
            }
        }
        #expect(compared > 60)
        #expect(disambiguated >= 6, "both Morus in three languages")
    }

    @Test func autocomplete() async throws {
        let engine = try Self.engine.get()
        let pant = await engine.result(SearchAutocompleteRequest(prefix: "pant", limit: 5))?["suggestions"]?.arrayValue ?? []
        #expect(pant.count == 5)
        #expect(pant.allSatisfy { $0["text"]?.stringValue?.lowercased().hasPrefix("pant") == true })
        let snow = await engine.result(SearchAutocompleteRequest(prefix: "Snow l"))?["suggestions"]?.arrayValue ?? []
        #expect(snow.first?["text"] == "Snow leopard")
        let lion = await engine.result(SearchAutocompleteRequest(prefix: "lion"))?["suggestions"]?.arrayValue ?? []
        #expect(lion.first?["text"] == "Lion", "an exact name first")
        let texts = lion.compactMap { $0["text"]?.stringValue?.lowercased() }
        #expect(Set(texts).count == texts.count, "distinct")
        #expect(await engine.result(SearchAutocompleteRequest(prefix: ""))?["suggestions"] == .array([]))
        #expect(await engine.call(SearchAutocompleteRequest(prefix: "a", limit: 21))?["error"]?["data"]?["field"] == "limit")
    }
}

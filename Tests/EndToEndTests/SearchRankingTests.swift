import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// Tiers, inflections, compounds, accents, filters, listing, cursors and autocomplete of
/// `search/query` and `search/autocomplete`, over the real binary on the embedded database.
@Suite(.serialized) struct SearchRankingTests {
    static let engine = Result { try EngineProcess() }

    func results(_ query: String?, _ extra: [(key: String, value: JSONValue)] = []) async throws -> [JSONValue] {
        try await response(query, extra)?["result"]?["results"]?.arrayValue ?? []
    }

    func response(_ query: String?, _ extra: [(key: String, value: JSONValue)] = []) async throws -> JSONValue? {
        let params: [(key: String, value: JSONValue)] = (query.map { [("query", JSONValue.string($0))] } ?? []) + extra
        return try await Self.engine.get().call(SearchQueryRequest.self, params: .object(params))
    }

    func id(of scientificName: String) async throws -> Int64 {
        let hit = try await results(scientificName, [("limit", 1)]).first
        #expect(hit?["scientificName"]?.stringValue == scientificName)
        return hit?["id"]?.int64Value ?? 0
    }

    static let tierOrder = ["exact", "exact-folded", "exact-inflected", "whole-word", "inflected", "prefix", "word-internal", "all-names", "fuzzy", "partial"]

    @Test func eachResultSaysItsTierAndLanguage() async throws {
        let cases: [(query: String, name: String, tier: String, lang: String?)] = [
            ("Lion", "Lion", "exact", "en"), ("lowe", "Löwe", "exact-folded", "de"), ("bush elephant", "African bush elephant", "whole-word", "en"),
            ("tigers", "Tiger", "exact-inflected", "en"), ("Löwen", "Löwe", "exact-inflected", "de"), ("bears", "Bears", "exact", "en"), ("snow leop", "Snow leopard", "prefix", "en"),
            ("Maus", "Hausmaus", "whole-word", "de"), ("Spitzmäuse", "Spitzmäuse", "exact", "de"), ("Mausvögel", "Mausvögel", "exact", "de"),
            ("leo lion", "Lion", "all-names", "en"), ("lyon", "Lion", "fuzzy", "en"), ("Panthera leo", "Panthera leo", "exact", nil),
            ("spotted raccoon", "Raccoon", "partial", "en"),
        ]
        for c in cases {
            let first = try await results(c.query, [("limit", 3)]).first
            #expect(first?["matchedName"]?.stringValue == c.name, "\(c.query)")
            #expect(first?["matchTier"]?.stringValue == c.tier, "\(c.query)")
            #expect(first?["matchedLang"]?.stringValue == c.lang, "\(c.query)")
        }
    }

    /// Scores fall strictly with rank; tiers come in order but where a group's members follow it
    /// (`GroupMembers`); typos never outrank a hit as typed.
    @Test func scoresFallWithRankAndTyposNeverOutrankExactHits() async throws {
        for query in ["lion", "bear", "Hund", "tigers", "lions", "bears", "mice", "wolf", "panth", "lyon", "Fuchs", "elefant", "a"] {
            let found = try await results(query, [("limit", 200)])
            let tiers = found.compactMap { $0["matchTier"]?.stringValue }.map { Self.tierOrder.firstIndex(of: $0) ?? 99 }
            #expect(tiers.count == found.count && !tiers.contains(99), "\(query)")
            let fuzzy = Self.tierOrder.firstIndex(of: "fuzzy")!
            if let firstTypo = tiers.firstIndex(where: { $0 >= fuzzy }) {
                #expect(tiers[firstTypo...].allSatisfy { $0 >= fuzzy }, "\(query): \(tiers)")
            }
            // Apart from a group's members moved up after it, tiers never rise (whole words and
            // inflections rank as one).
            let moved = found.first.map { $0["rank"] != "species" } ?? false ? 6 : 0
            let inflected = Self.tierOrder.firstIndex(of: "inflected")!
            let rest = tiers.dropFirst(moved).map { $0 == inflected ? inflected - 1 : $0 }
            #expect(rest == rest.sorted() || query == "a", "\(query): \(tiers)")
            let scores = found.compactMap { $0["relevanceScore"]?.doubleValue }
            #expect(scores == scores.sorted(by: >) && Set(scores).count == scores.count, "\(query): scores fall strictly with rank")
        }
    }

    @Test func inflectionsFindTheSingularAndThePlural() async throws {
        let cases: [(String, String)] = [
            ("wolves", "Canis lupus"), ("mice", "Mus musculus"), ("geese", "Branta canadensis"), ("lions", "Panthera leo"),
            ("Löwen", "Panthera leo"), ("leones", "Panthera leo"), ("loups", "Canis lupus"), ("aigles royaux", "Aquila chrysaetos"),
            ("Eisbären", "Ursus maritimus"), ("Goldfische", "Carassius auratus"), ("Hunde", "Canidae"), ("Pinguin", "Spheniscidae"),
        ]
        for (query, expected) in cases {
            let hit = try await results(query, [("limit", 10)]).first { $0["scientificName"]?.stringValue == expected }
            #expect(hit != nil, "\(query) → \(expected)")
            #expect(["exact", "exact-inflected", "inflected", "whole-word"].contains(hit?["matchTier"]?.stringValue ?? ""), "\(query)")
        }
        // A plural is not a typo: no fuzzy matching was needed.
        #expect(try await response("wolves")?["result"]?["fuzzy"] == false)
    }

    /// A whole name in another number comes before whole-word plurals of other taxa, and within a
    /// tier the better-known taxon (its species have common names: prominence) first.
    @Test func wholeNamesInAnotherNumberAndBetterKnownTaxaFirst() async throws {
        let database = try Fixtures.buildDatabase("""
            kingdom Animalia
            order Neuroptera
            family Myrmeleontidae
              name en Ant lions
            genus Myrmeleon
            species Myrmeleon formicarius
            order Lepidoptera
            genus Panthea
            species Panthea acronyctoides
            species Panthea coenobita
              name en Pine-tree lappet
            species Panthea furcilla
            order Carnivora
            genus Panthera
            species Panthera leo
              name en Lion
            species Panthera tigris
              name en Tiger
            species Panthera onca
              name en Jaguar

            """)
        let engine = try EngineProcess(["--database", database.path])
        func top(_ query: String) async -> [JSONValue] {
            await engine.result(SearchQueryRequest(query: query, limit: 3))?["results"]?.arrayValue ?? []
        }
        let lions = await top("lions")
        #expect(lions.first?["scientificName"] == "Panthera leo" && lions.first?["matchTier"] == "exact-inflected", "\(lions)")
        #expect(lions.dropFirst().first?["scientificName"] == "Myrmeleontidae")
        // Panthea is shorter, but more of Panthera's species have names: in any language.
        let panth = await engine.result(SearchQueryRequest(query: "panth", limit: 10))?["results"]?.arrayValue ?? []
        let panthera = panth.firstIndex { $0["scientificName"] == "Panthera" }, panthea = panth.firstIndex { $0["scientificName"] == "Panthea" }
        #expect(panthera != nil && panthea != nil && panthera! < panthea!, "\(panth)")
        let german = await engine.result(SearchQueryRequest(query: "panth", lang: "de", limit: 10))?["results"]?.arrayValue ?? []
        #expect((german.firstIndex { $0["scientificName"] == "Panthera" } ?? 99) < (german.firstIndex { $0["scientificName"] == "Panthea" } ?? 99))
    }

    /// Compound words split at build time: a query word equal to a part is a whole word, and the
    /// head before the modifiers; a part not split is still found inside the word.
    @Test func compoundsSplitIntoWholeWords() async throws {
        // Hund is the dog's own everyday name; Seehund, a compound whose head is Hund, follows as a
        // whole word, before Hundsrobben, where Hund is only a modifier.
        let hund = try await results("Hund", [("limit", 30), ("lang", "de")])
        let names = hund.compactMap { $0["matchedName"]?.stringValue }
        #expect(hund.first?["scientificName"] == "Canis familiaris" && hund.first?["matchTier"] == "exact", "\(names)")
        #expect(names.contains("Seehund"))
        let seehund = hund.firstIndex { $0["matchedName"] == "Seehund" } ?? 0
        #expect(hund[seehund]["matchTier"] == "whole-word")
        #expect(seehund < (hund.firstIndex { $0["matchedName"] == "Hundsrobben" } ?? 99), "the head before a modifier")
        #expect(try await results("Fuchs", [("lang", "de")]).first?["scientificName"] == "Vulpes vulpes")
        // A compound's head in the plural: Mäuse finds Hausmaus.
        #expect(try await results("Mäuse", [("limit", 20), ("lang", "de")]).contains { $0["matchedName"] == "Hausmaus" })
        // Three letters inside a word not split, at its end only (a compound's head).
        let ele = try await results("ele", [("limit", 50)]).filter { $0["matchTier"] == "word-internal" }
        #expect(!ele.isEmpty && ele.allSatisfy { hit in
            (hit["matchedName"]?.stringValue ?? "").folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                .split { !$0.isLetter }.contains { $0.hasSuffix("ele") }
        }, "\(ele.map { $0["matchedName"] ?? .null })")
    }

    @Test func accentsAsTypedComeFirst() async throws {
        // Bär: the bears before the French "Bar commun" that folding would make equal.
        let baer = try await results("Bär", [("limit", 100)])
        #expect(baer.first?["scientificName"] == "Ursidae")
        let bass = baer.firstIndex { $0["scientificName"] == "Dicentrarchus labrax" }
        let polar = baer.firstIndex { $0["scientificName"] == "Ursus maritimus" }
        #expect(polar != nil && (bass == nil || polar! < bass!), "Eisbär before Bar commun")
        // Accent-exact above accent-folded; both above everything else.
        #expect(try await results("Löwe").first?["matchTier"] == "exact")
        #expect(try await results("lowe").first?["matchTier"] == "exact-folded")
    }

    @Test func conservationListsAndThreatened() async throws {
        let threatened = try await results("bear", [("conservation", "threatened"), ("limit", 100)])
        #expect(!threatened.isEmpty)
        #expect(threatened.allSatisfy { ["VU", "EN", "CR"].contains($0["conservationStatus"]?.stringValue ?? "") })
        #expect(threatened.contains { $0["scientificName"] == "Ursus maritimus" })
        let list = try await results("elephant", [("conservation", .array(["EN", "CR"])), ("limit", 100)])
        #expect(Set(list.compactMap { $0["conservationStatus"]?.stringValue }) == ["EN", "CR"])
        let bad = try await response("bear", [("conservation", .array(["EN", "XX"]))])
        #expect(bad?["error"]?["data"]?["field"] == "conservation")
        #expect(try await response("bear", [("conservation", .array([]))])?["error"]?["data"]?["field"] == "conservation")
    }

    @Test func withinKeepsOnlyTheSubtree() async throws {
        let mammalia = try await id(of: "Mammalia")
        let inside = try await results("tiger", [("within", .number(String(mammalia))), ("limit", 100)])
        let names = Set(inside.compactMap { $0["scientificName"]?.stringValue })
        #expect(names.contains("Panthera tigris") && names.contains("Thylacinus cynocephalus"))
        #expect(!names.contains("Galeocerdo cuvier") && !names.contains("Aedes albopictus"), "the tiger shark and mosquito are not mammals")
        // Every result's lineage passes through Mammalia.
        for result in inside.prefix(5) {
            let detail = await (try Self.engine.get()).result(TaxonDetailRequest(id: result["id"]?.int64Value ?? 0))
            let ids = detail?["lineage"]?.arrayValue?.compactMap { $0["id"]?.int64Value } ?? []
            #expect(ids.contains(mammalia), "\(result["scientificName"] ?? .null)")
        }
        let unknown = try await response("tiger", [("within", 999)])
        #expect(unknown?["error"]?["code"] == .number("-32602") && unknown?["error"]?["data"]?["field"] == "within")
    }

    @Test func habitatFilter() async throws {
        let reef = try await results(nil, [("habitat", "coral reef"), ("limit", 100)])
        #expect(!reef.isEmpty)
        for hit in reef.prefix(5) {
            let detail = await (try Self.engine.get()).result(TaxonDetailRequest(id: hit["id"]?.int64Value ?? 0))
            let habitats = detail?["traits"]?.arrayValue?.filter { $0["key"] == "habitat" }.compactMap { $0["value"]?.stringValue?.lowercased() } ?? []
            #expect(habitats.contains { $0.contains("coral reef") }, "\(hit["scientificName"] ?? .null): \(habitats)")
        }
        let savannaLions = try await results("lion", [("habitat", "savanna")])
        #expect(savannaLions.first?["scientificName"] == "Panthera leo")
        #expect(!savannaLions.contains { $0["scientificName"] == "Zalophus californianus" })
    }

    @Test func listingByFiltersAlonePagesWithATotal() async throws {
        let mammalia = try await id(of: "Mammalia")
        let filters: [(key: String, value: JSONValue)] = [("conservation", "CR"), ("rank", "species"), ("within", .number(String(mammalia)))]
        let first = try await response(nil, filters + [("limit", 3)])?["result"]
        let total = first?["total"]?.int64Value ?? 0
        #expect(total > 3 && first?["totalCapped"] == false)
        var all: [JSONValue] = first?["results"]?.arrayValue ?? []
        var cursor = first?["nextCursor"]
        while let next = cursor, all.count < 1000 {
            let page = try await response(nil, filters + [("limit", 3), ("cursor", next)])?["result"]
            all += page?["results"]?.arrayValue ?? []
            cursor = page?["nextCursor"]
        }
        #expect(all.count == Int(total))
        #expect(all.allSatisfy { $0["conservationStatus"] == "CR" && $0["rank"] == "species" })
        let names = all.compactMap { $0["scientificName"]?.stringValue }
        #expect(names == names.sorted() && Set(names).count == names.count)
        #expect(names.contains("Diceros bicornis"))
        // A blank query with filters lists too; with neither, the query is missing.
        #expect(try await results("  ", filters).count == min(Int(total), 50))
        #expect(try await response(nil, [])?["error"]?["data"]?["field"] == "query")
    }

    @Test func totalsAndCursorsBoundToTheirQuery() async throws {
        let lion = try await response("lion", [("limit", 2)])?["result"]
        let total = lion?["total"]?.int64Value ?? 0
        let all = try await results("lion", [("limit", 1000)])
        #expect(total >= 2 && (lion?["totalCapped"] == true || Int(total) == all.count))
        let cursor = lion?["nextCursor"] ?? .null
        #expect(try await response("lion", [("limit", 2), ("cursor", cursor)])?["error"] == nil)
        for (query, extra) in [("tiger", [(key: String, value: JSONValue)]()), ("lion", [("rank", "species")]), ("lion", [("lang", "de")])] {
            let other = try await response(query, extra + [("cursor", cursor)])
            #expect(other?["error"]?["code"] == .number("-32602") && other?["error"]?["data"]?["field"] == "cursor", "\(query) \(extra)")
        }
    }

    @Test func autocompleteMatchesAnyWordWithTaxonFields() async throws {
        let engine = try Self.engine.get()
        func suggest(_ params: [(key: String, value: JSONValue)]) async -> [JSONValue] {
            await engine.call(SearchAutocompleteRequest.self, params: .object(params))?["result"]?["suggestions"]?.arrayValue ?? []
        }
        let bear = await suggest([("prefix", "bear")])
        let texts = bear.compactMap { $0["text"]?.stringValue }
        #expect(texts.contains("Brown bear") && texts.contains("Polar bear"), "\(texts)")
        let polar = bear.first { $0["text"] == "Polar bear" }
        #expect(polar?["scientificName"] == "Ursus maritimus" && polar?["rank"] == "species" && polar?["conservationStatus"] == "VU")
        #expect(polar?["taxonId"]?.int64Value != nil && polar?["lang"] == "en")
        #expect(await suggest([("prefix", "elephant")]).contains { $0["text"] == "Asian elephant" })
        // The requested language first.
        let spanish = await suggest([("prefix", "le"), ("lang", "es")])
        #expect(spanish.first?["lang"] == "es", "\(spanish.map { $0["text"] ?? .null })")
        let german = await suggest([("prefix", "eis"), ("lang", "de")])
        #expect(german.first?["lang"] == "de" && german.first?["text"]?.stringValue?.hasPrefix("Eis") == true, "\(german)")
        // rank and conservation are honoured.
        let genera = await suggest([("prefix", "pan"), ("rank", "genus")])
        #expect(!genera.isEmpty && genera.allSatisfy { $0["rank"] == "genus" })
        let threatened = await suggest([("prefix", "bear"), ("conservation", "threatened")])
        #expect(!threatened.isEmpty && threatened.allSatisfy { ["VU", "EN", "CR"].contains($0["conservationStatus"]?.stringValue ?? "") })
        #expect(await engine.call(SearchAutocompleteRequest.self, params: .object(["prefix": "a", "rank": "tribe"]))?["error"]?["data"]?["field"] == "rank")
    }
}

import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// `taxon/children` with `sort: "common"`: a level in the child's language, paged through the real
/// binary with cursors, against the order worked out here from the scientific listing.
@Suite(.serialized) struct ChildOrderTests {
    /// One genus of 40 species: German names that tie (three `Maus`, `Maus` and `maus`), accents
    /// (`Ährenmaus` sorts with `A`), a Swiss German name, English-only, French-only and nameless
    /// species, some least-concern, in no particular order of their scientific names.
    static let source: String = {
        var text = """
            domain Eukaryota
            kingdom Animalia
            phylum Chordata
            class Mammalia
            order Rodentia
            family Muridae
            genus Mus
              name de Mäuse
              name en Mice

            """
        let german = ["Maus", "Zwergmaus", "Maus", "Ährenmaus", "maus", "Aal-Maus", "Maus", "Öde Maus", "Oase-Maus", "Bergmaus", "ährenmaus"]
        for i in 0..<40 {
            let epithet = String(UnicodeScalar(UInt8(ascii: "z") - UInt8(i % 26))) + String(UnicodeScalar(UInt8(ascii: "a") + UInt8(i / 2 % 26))) + "us"
            text += "species Mus \(epithet)\n"
            if i % 3 == 0 { text += "  iucn LC\n" }
            switch i % 5 {
            case 0, 1: text += "  name de \(german[i % german.count])\n  name en House mouse \(i)\n"
            case 2: text += "  name en Field mouse \(i)\n"
            case 3: text += i % 2 == 0 ? "  name fr Souris \(i)\n" : "  name de-CH Chuchimuus \(i)\n"
            default: break
            }
        }
        return text
    }()
    static let database = Result { try Fixtures.buildDatabase(source) }

    func engine() throws -> EngineProcess {
        try EngineProcess(["--database", try Self.database.get().path])
    }

    func genus(_ engine: EngineProcess) async throws -> Int64 {
        let found = await engine.result(SearchQueryRequest(query: "Mus", rank: .genus))
        return try #require(found?["results"]?.arrayValue?.first?["id"]?.int64Value)
    }

    /// Every page of `request`'s level, following `nextCursor`; fails on an error.
    func pages(_ engine: EngineProcess, _ request: TaxonChildrenRequest) async throws -> [[JSONValue]] {
        var out: [[JSONValue]] = []
        var request = request
        repeat {
            let answer = await engine.call(request)
            let result = try #require(answer?["result"], "\(String(describing: answer))")
            out.append(result["children"]?.arrayValue ?? [])
            request.cursor = result["nextCursor"]?.stringValue
            #expect(out.count < 200)
        } while request.cursor != nil && out.count < 200
        return out
    }

    static func fold(_ name: String) -> String { name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }

    /// The common-name order of `children` (as the scientific listing shows them, in `lang`):
    /// named in `lang` or its primary language first, by folded name, name, scientific name, id;
    /// then the others by scientific name and id.
    static func commonOrder(_ children: [JSONValue], lang: String) -> [Int64] {
        let primary = String(lang.split(separator: "-")[0])
        func named(_ c: JSONValue) -> String? {
            guard let tag = c["preferredCommonNameLang"]?.stringValue, tag == lang || tag == primary else { return nil }
            return c["preferredCommonName"]?.stringValue
        }
        let first = children.compactMap { c in named(c).map { (fold: fold($0), name: $0, sci: c["scientificName"]!.stringValue!, id: c["id"]!.int64Value!) } }
            .sorted { ($0.fold, $0.name, $0.sci, $0.id) < ($1.fold, $1.name, $1.sci, $1.id) }.map(\.id)
        let rest = children.filter { named($0) == nil }.map { (sci: $0["scientificName"]!.stringValue!, id: $0["id"]!.int64Value!) }
            .sorted { ($0.sci, $0.id) < ($1.sci, $1.id) }.map(\.id)
        return first + rest
    }

    @Test func pagingAWholeLevelInEitherOrderAndEveryLanguage() async throws {
        let engine = try engine()
        let mus = try await genus(engine)
        let scientific = try #require(await engine.result(TaxonChildrenRequest(id: mus, limit: 1000))?["children"]?.arrayValue)
        #expect(scientific.count == 40)
        let sciIDs = scientific.compactMap { $0["id"]?.int64Value }
        let sciKeys = scientific.map { ($0["scientificName"]!.stringValue!, $0["id"]!.int64Value!) }
        #expect(zip(sciKeys, sciKeys.dropFirst()).allSatisfy { $0 < $1 }, "the default order stays by scientific name, then id")
        let explicit = await engine.result(TaxonChildrenRequest(id: mus, limit: 1000, sort: .scientific))?["children"]?.arrayValue
        #expect(explicit == scientific)

        for (lang, canonical) in [("de", "de"), ("DE_de", "de-DE"), ("de-CH", "de-CH"), ("en", "en"), ("fr", "fr"), ("ja", "ja")] {
            let listed = try #require(await engine.result(TaxonChildrenRequest(id: mus, limit: 1000, lang: lang))?["children"]?.arrayValue)
            let expected = Self.commonOrder(listed, lang: canonical)
            let named = listed.filter { [canonical, String(canonical.prefix(2))].contains($0["preferredCommonNameLang"]?.stringValue ?? "") }.count
            for limit in [1, 2, 3, 7, 13, 100] {
                let paged = try await pages(engine, TaxonChildrenRequest(id: mus, limit: limit, lang: lang, sort: .common))
                let ids = paged.flatMap { $0 }.compactMap { $0["id"]?.int64Value }
                #expect(ids == expected, "lang \(lang), limit \(limit)")
                #expect(Set(ids) == Set(sciIDs) && ids.count == 40, "every child once: lang \(lang), limit \(limit)")
                #expect(paged.dropLast().allSatisfy { $0.count == limit } && (paged.last?.count ?? 0) <= limit)
                // The same taxa as the scientific listing shows them, names and all.
                #expect(paged.flatMap { $0 }.allSatisfy { listed.contains($0) })
            }
            switch canonical {
            case "de", "de-DE": #expect(named == 16, "de: the 16 with a German name come first")
            case "de-CH": #expect(named == 20, "de-CH reads de-CH and de names")
            case "en": #expect(named == 24, "en: all but the French-only, Swiss-only and nameless")
            case "ja": #expect(named == 0 && expected == sciIDs, "no Japanese names: the scientific order")
            default: break
            }
        }
    }

    /// The German level's head, as a child would read it: accents and case set aside, ties by
    /// scientific name.
    @Test func namesThatTieKeepOneOrder() async throws {
        let engine = try engine()
        let mus = try await genus(engine)
        let page = try #require(await engine.result(TaxonChildrenRequest(id: mus, limit: 16, lang: "de", sort: .common))?["children"]?.arrayValue)
        let names = page.compactMap { $0["preferredCommonName"]?.stringValue }
        #expect(names.prefix(2) == ["Aal-Maus", "Aal-Maus"], "\(names)")
        #expect(names[2..<6] == ["Ährenmaus", "Ährenmaus", "ährenmaus", "ährenmaus"], "Ä sorts with A; then as written: \(names)")
        let mice = page.filter { Self.fold($0["preferredCommonName"]?.stringValue ?? "") == "maus" }
        #expect(mice.count >= 4)
        let keys = mice.map { ($0["preferredCommonName"]!.stringValue!, $0["scientificName"]!.stringValue!) }
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "Maus before maus, then by scientific name: \(keys)")
        #expect(page.allSatisfy { $0["preferredCommonNameLang"] == "de" })
    }

    @Test func filtersApplyToBothGroups() async throws {
        let engine = try engine()
        let mus = try await genus(engine)
        let listed = try #require(await engine.result(TaxonChildrenRequest(id: mus, limit: 1000, conservation: .LC, lang: "de"))?["children"]?.arrayValue)
        #expect(listed.count == 14)
        let paged = try await pages(engine, TaxonChildrenRequest(id: mus, limit: 4, conservation: .LC, lang: "de", sort: .common))
        #expect(paged.flatMap { $0 }.compactMap { $0["id"]?.int64Value } == Self.commonOrder(listed, lang: "de"))
    }

    /// A cursor is bound to its taxon, its order and (by common name) its language; cursors of the
    /// scientific order are those engines wrote before the common order existed.
    @Test func cursorsStayWithTheirOrderAndLanguage() async throws {
        let engine = try engine()
        let mus = try await genus(engine)
        let german = try #require(await engine.result(TaxonChildrenRequest(id: mus, limit: 2, lang: "de", sort: .common))?["nextCursor"]?.stringValue)
        let french = await engine.call(TaxonChildrenRequest(id: mus, limit: 2, cursor: german, lang: "fr", sort: .common))
        #expect(french?["error"]?["data"]?["field"] == "cursor")
        #expect(french?["error"]?["data"]?["detail"] == "was made for lang de, not fr")
        let scientific = await engine.call(TaxonChildrenRequest(id: mus, limit: 2, cursor: german, lang: "de"))
        #expect(scientific?["error"]?["data"]?["detail"] == "was made for sort common, not scientific")
        // The same language written another way is the same language.
        let again = await engine.call(TaxonChildrenRequest(id: mus, limit: 2, cursor: german, lang: "DE", sort: .common))
        #expect(again?["result"]?["children"]?.arrayValue?.count == 2)

        // A cursor as engines before the common order wrote them: {"id","name","parent"}.
        let all = try #require(await engine.result(TaxonChildrenRequest(id: mus, limit: 1000))?["children"]?.arrayValue)
        let old = #"{"id":\#(all[4]["id"]!.int64Value!),"name":"\#(all[4]["scientificName"]!.stringValue!)","parent":\#(mus)}"#
        let cursor = Data(old.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let resumed = await engine.result(TaxonChildrenRequest(id: mus, limit: 3, cursor: cursor))?["children"]?.arrayValue
        #expect(resumed == Array(all[5..<8]))
        let unknownSort = await engine.call(TaxonChildrenRequest.self, params: .object(["id": .integer(mus), "sort": "popular"]))
        #expect(unknownSort?["error"]?["data"]?["field"] == "sort")
    }
}

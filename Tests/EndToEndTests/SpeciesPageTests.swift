import Foundation
import STOLJSON
import STOLMCP
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// A species page over the real binary and the embedded database: facts in the asked language,
/// a group and its species told apart (search, detail, MCP), and the page in one call.
@Suite struct SpeciesPageTests {
    static func id(_ name: String) throws -> Int64 {
        try #require(try EmbeddedDatabaseTests.query("SELECT id FROM taxa WHERE scientific_name = '\(name)'").first.flatMap { Int64($0) }, "\(name)")
    }

    static func traits(_ engine: EngineProcess, _ id: Int64, _ lang: String) async throws -> [String: JSONValue] {
        let traits = try #require(await engine.result(TaxonTraitsRequest(id: id, lang: lang))?["traits"]?.arrayValue)
        return Dictionary(traits.map { ($0["key"]?.stringValue ?? "", $0) }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: Facts in the asked language

    @Test func traitsComeBackInGermanFrenchAndSpanishWithTheirUnits() async throws {
        let engine = try EngineProcess()
        let lion = try Self.id("Panthera leo")
        let expected: [String: (label: String, diet: String)] = [
            "de": ("Ernährung", "Fleischfresser (große Huftiere)"),
            "fr": ("régime alimentaire", "carnivore (grands ongulés)"),
            "es": ("alimentación", "carnívoro (grandes ungulados)"),
        ]
        for (lang, want) in expected {
            let traits = try await Self.traits(engine, lion, lang)
            let diet = try #require(traits["diet"])
            #expect(diet["label"] == .string(want.label), "\(lang)")
            #expect(diet["value"] == .string(want.diet), "\(lang)")
            #expect(diet["translated"] == true)
            // Numbers keep their SI unit symbol; the key stays the identifier.
            let length = try #require(traits["body length"])
            #expect(length["unit"] == "m" && length["value"] == "1.4–2.5", "\(lang)")
            #expect(length["translated"] == true)
        }
        // taxon/detail carries the same translated traits.
        let detail = try #require(await engine.result(TaxonDetailRequest(id: lion, lang: "de")))
        #expect(detail["traits"]?.arrayValue?.first { $0["key"] == "diet" }?["value"] == "Fleischfresser (große Huftiere)")

        // A measurement in words gets the language's quantity words and decimal comma; the symbol stays.
        let koala = try Self.id("Phascolarctos cinereus")
        let fr = try await Self.traits(engine, koala, "fr")
        #expect(fr["habitat"]?["value"] == "forêts d'eucalyptus et bois de l'est de l'Australie")
        #expect(fr["diet"]?["value"] == "herbivore (feuilles d'eucalyptus)")
        #expect(fr["body length"]?["unit"] == "cm")
    }

    @Test func whatCannotBeTranslatedComesBackAsItIsAndSaysSo() async throws {
        // Every trait value of the embedded database has its translation; a fixture database
        // holds one with a place the table does not know.
        let fixture = try Fixtures.buildDatabase(Fixtures.taxa.replacingOccurrences(of: "trait habitat: savanna", with: "trait habitat: savanna of Atlantis"))
        let other = try EngineProcess(["--database", fixture.path])
        let fixtureLion = try #require(try SQLiteCLI.run(fixture, "SELECT id FROM taxa WHERE scientific_name = 'Panthera leo'").first.flatMap { Int64($0) })
        let habitat = try #require(try await Self.traits(other, fixtureLion, "de")["habitat"])
        #expect(habitat["translated"] == false)
        #expect(habitat["value"] == "savanna of Atlantis")
        #expect(habitat["label"] == "Lebensraum")
        #expect(try await Self.traits(other, fixtureLion, "de")["diet"]?["value"] == "Fleischfresser")

        let engine = try EngineProcess()
        let lion = try Self.id("Panthera leo")
        let english = try #require(try await Self.traits(engine, lion, "en")["habitat"])
        // English is the source's language; a language without a table is untranslated throughout.
        #expect(english["translated"] == true && english["label"] == "habitat")
        let portuguese = try #require(try await Self.traits(engine, lion, "pt-BR")["diet"])
        #expect(portuguese["translated"] == false && portuguese["value"] == "carnivore (large hoofed mammals)" && portuguese["label"] == "diet")
        // A regional tag uses its language's table.
        #expect(try await Self.traits(engine, lion, "de-AT")["diet"]?["value"] == "Fleischfresser (große Huftiere)")
        let bad = await engine.call(TaxonTraitsRequest(id: lion, lang: "not a tag"))
        #expect(bad?["error"]?["code"] == -32602 && bad?["error"]?["data"]?["field"] == "lang")
    }

    // MARK: A group and its only species

    @Test func theKoalaFamilyAndTheKoalaAreToldApart() async throws {
        let engine = try EngineProcess()
        let koala = try Self.id("Phascolarctos cinereus"), family = try Self.id("Phascolarctidae")
        let results = try #require(await engine.result(SearchQueryRequest(query: "Koala"))?["results"]?.arrayValue)
        let species = try #require(results.first { $0["id"] == .integer(Int(koala)) })
        let group = try #require(results.first { $0["id"] == .integer(Int(family)) })
        #expect(species["rank"] == "species" && group["rank"] == "family")
        #expect(group["sharedName"]?["role"] == "group")
        #expect(group["sharedName"]?["namedFor"]?["id"] == .integer(Int(koala)))
        #expect(group["sharedName"]?["namedFor"]?["scientificName"] == "Phascolarctos cinereus")
        #expect(group["sharedName"]?["display"] == "Koala (family Phascolarctidae, named for Phascolarctos cinereus)")
        #expect(species["sharedName"]?["role"] == "member")
        #expect(species["sharedName"]?["group"]?["id"] == .integer(Int(family)))
        #expect(species["sharedName"]?["display"] == "Koala (species Phascolarctos cinereus)")
        // A name no group shares carries nothing.
        let lion = try #require(await engine.result(SearchQueryRequest(query: "Panthera leo"))?["results"]?.arrayValue?.first)
        #expect(lion["sharedName"] == nil)

        let detail = try #require(await engine.result(TaxonDetailRequest(id: family)))
        #expect(detail["sharedName"]?["namedFor"]?["id"] == .integer(Int(koala)))
        let whale = try #require(await engine.result(TaxonDetailRequest(id: try Self.id("Eschrichtius robustus"))))
        #expect(whale["sharedName"]?["group"]?["scientificName"] == "Eschrichtiidae")
        #expect(await engine.result(TaxonDetailRequest(id: try Self.id("Panthera leo")))?["sharedName"] == nil)
    }

    @Test func mcpResolvesAGroupAndItsSpeciesToTheSpecies() async throws {
        let engine = try EngineProcess(["mcp"])
        let initialized = await engine.call(MCPServer.InitializeRequest.self, params: .object([
            "protocolVersion": "2025-06-18", "capabilities": .object([:]), "clientInfo": .object(["name": "tests", "version": "1"]),
        ]))
        #expect(initialized?["result"] != nil, "\(String(describing: initialized))")
        engine.notify(MCPServer.InitializedNotification())
        for name in ["Koala", "Gray whale"] {
            let call = await engine.call(MCPServer.CallToolRequest(name: "get_taxon", arguments: .object(["taxon": .string(name)])))
            let result = try #require(call?["result"], "\(String(describing: call))")
            #expect(result["isError"] == false, "\(name): \(result)")
            #expect(result["structuredContent"]?["taxon"]?["rank"] == "species", "\(name)")
        }
        let koala = await engine.call(MCPServer.CallToolRequest(name: "get_taxon", arguments: .object(["taxon": "Koala"])))
        #expect(koala?["result"]?["structuredContent"]?["taxon"]?["scientificName"] == "Phascolarctos cinereus")
        // A name shared by unrelated taxa stays ambiguous.
        let morus = await engine.call(MCPServer.CallToolRequest(name: "get_taxon", arguments: .object(["taxon": "Morus"])))
        if morus?["result"]?["isError"] == true {
            #expect(morus?["result"]?["structuredContent"]?["reason"] == "ambiguous" || morus?["result"]?["structuredContent"]?["reason"] == "unknown")
        }
    }

    // MARK: One call for a page

    @Test func aPageIsOneCall() async throws {
        let engine = try EngineProcess()
        let koala = try Self.id("Phascolarctos cinereus"), family = try Self.id("Phascolarctidae")
        let plain = try #require(await engine.result(TaxonDetailRequest(id: koala)))
        #expect(plain["image"] == nil && plain["isFavorite"] == nil && plain["relatives"] == nil)

        // A favourite added just before is seen: the detail waits for the earlier write.
        engine.sendRequest(FavoritesAddRequest(taxonId: koala), id: "fav")
        let page = try #require(await engine.result(TaxonDetailRequest(id: koala, lang: "de", include: [.image, .favorite, .relatives])))
        #expect(page["isFavorite"] == true)
        #expect(page["image"]?["packId"] == "bundled" && page["image"]?["author"] == "BurningWell")
        #expect(max(page["image"]?["width"]?.int64Value ?? 0, page["image"]?["height"]?.int64Value ?? 0) == 160)
        #expect(page["image"]?["data"]?.stringValue?.isEmpty == false)
        let relatives = try #require(page["relatives"]?["relatives"]?.arrayValue)
        let direct = try #require(await engine.result(CompareRelativesRequest(id: koala, lang: "de"))?["relatives"]?.arrayValue)
        #expect(relatives == direct)
        for key in ["taxon", "lineage", "names", "traits", "references", "childCount"] { #expect(page[key] != nil, "\(key)") }

        let large = try #require(await engine.result(TaxonDetailRequest(id: koala, include: [.image], imageSize: .page)))
        #expect(large["image"]?["height"] == 800)
        // A family has no relatives (they are found between species) and here no image: both null.
        let group = try #require(await engine.result(TaxonDetailRequest(id: family, include: [.relatives, .image, .favorite])))
        #expect(group["relatives"] == .null && group["image"] == .null && group["isFavorite"] == false)

        for (params, field) in [(JSONValue.object(["id": .integer(Int(koala)), "include": ["everything"]]), "include.0"),
                                (.object(["id": .integer(Int(koala)), "include": ["image"], "imageSize": "huge"]), "imageSize"),
                                (.object(["id": .integer(Int(koala)), "imageSize": "page"]), "imageSize")] {
            let response = await engine.call(TaxonDetailRequest.self, params: params)
            #expect(response?["error"]?["code"] == -32602 && response?["error"]?["data"]?["field"] == JSONValue.string(field), "\(String(describing: response))")
        }
    }
}

import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// What a species page gains from `build-db`, through the real binary over real pipes:
/// descriptions with their attribution (a generic table, the dataset's own words, Wikipedia's
/// introductions checked against wrong links), NCBI's named subspecies ("dog"), and names merged
/// from other sources with their conflicts reported. Every text here is the tests' own.
@Suite(.serialized) struct SpeciesContentTests {
    static let dmp = Fixtures.taxdump

    /// A small NCBI taxdump: wolves and dogs, cats, gannets and mulberries (the genus *Morus* in
    /// two kingdoms), the plant genus *Oenanthe* (a bird genus elsewhere).
    static let nodes = dmp([
        ["1", "1", "no rank", "", "8"],
        ["2759", "1", "superkingdom", "", "1"],
        ["33208", "2759", "kingdom", "", "1"],
        ["7711", "33208", "phylum", "", "1"],
        ["40674", "7711", "class", "", "2"],
        ["33554", "40674", "order", "", "2"],
        ["9608", "33554", "family", "", "2"],
        ["9611", "9608", "genus", "", "2"],
        ["9612", "9611", "species", "", "2"],
        ["9615", "9612", "subspecies", "", "2"],
        ["286419", "9612", "subspecies", "", "2"],
        ["71001", "9612", "subspecies", "", "2"],  // unnamed: dropped
        ["71002", "9615", "strain", "", "2"],  // below the dog: dropped
        ["9614", "9611", "species", "", "2"],
        ["9681", "33554", "family", "", "2"],
        ["9682", "9681", "genus", "", "2"],
        ["9685", "9682", "species", "", "2"],
        ["8782", "7711", "class", "", "2"],
        ["30446", "8782", "order", "", "2"],
        ["9206", "30446", "family", "", "2"],
        ["37577", "9206", "genus", "", "2"],
        ["37578", "37577", "species", "", "2"],
        ["33090", "2759", "kingdom", "", "4"],
        ["3398", "33090", "class", "", "4"],
        ["3744", "3398", "order", "", "4"],
        ["3487", "3744", "family", "", "4"],
        ["3497", "3487", "genus", "", "4"],
        ["3498", "3497", "species", "", "4"],
        ["4036", "3398", "family", "", "4"],
        ["48170", "4036", "genus", "", "4"],
    ])

    static let names = dmp([
        ["1", "root", "", "scientific name"],
        ["2759", "Eukaryota", "", "scientific name"],
        ["33208", "Metazoa", "", "scientific name"],
        ["7711", "Chordata", "", "scientific name"],
        ["40674", "Mammalia", "", "scientific name"],
        ["33554", "Carnivora", "", "scientific name"],
        ["9608", "Canidae", "", "scientific name"],
        ["9611", "Canis", "", "scientific name"],
        ["9612", "Canis lupus", "", "scientific name"],
        ["9612", "gray wolf", "", "genbank common name"],
        ["9615", "Canis lupus familiaris", "", "scientific name"],
        ["9615", "dog", "", "genbank common name"],
        ["286419", "Canis lupus dingo", "", "scientific name"],
        ["286419", "dingo", "", "genbank common name"],
        ["71001", "Canis lupus lupus", "", "scientific name"],
        ["71002", "Canis lupus familiaris strain X", "", "scientific name"],
        ["9614", "Canis latrans", "", "scientific name"],
        ["9681", "Felidae", "", "scientific name"],
        ["9682", "Felis", "", "scientific name"],
        ["9685", "Felis catus", "", "scientific name"],
        ["9685", "domestic cat", "", "genbank common name"],
        ["8782", "Aves", "", "scientific name"],
        ["30446", "Suliformes", "", "scientific name"],
        ["9206", "Sulidae", "", "scientific name"],
        ["37577", "Morus", "", "scientific name"],
        ["37577", "gannets", "", "genbank common name"],
        ["37578", "Morus bassanus", "", "scientific name"],
        ["33090", "Viridiplantae", "", "scientific name"],
        ["3398", "Magnoliopsida", "", "scientific name"],
        ["3744", "Rosales", "", "scientific name"],
        ["3487", "Moraceae", "", "scientific name"],
        ["3497", "Morus", "", "scientific name"],
        ["3498", "Morus alba", "", "scientific name"],
        ["3498", "white mulberry", "", "genbank common name"],
        ["4036", "Apiaceae", "", "scientific name"],
        ["48170", "Oenanthe", "", "scientific name"],
    ])

    /// Introductions keyed by tax id, in the layout of `../shared/data/wikipedia` (own words).
    static let intros = """
        tax_id\twikidata\tenwiki_title\tintro
        9612\tQ1\tWolf\tThe wolf (Canis lupus) is a large wild canine of Eurasia and North America.
        9615\tQ2\tDog\tThe dog is a domesticated descendant of the wolf, kept by people for thousands of years.
        9685\tQ3\tWildcat\tWildcats are small striped cats of forests and grasslands: Felis silvestris in Europe and Felis lybica in Africa and Asia.
        3497\tQ4\tMorus (bird)\tMorus is a genus of large white seabirds that dive for fish.
        37577\tQ5\tGannet\tGannets are large seabirds that plunge into the sea for fish.
        9614\tQ6\tCanis\tCanis is a genus of the dog family with wolves, jackals and the coyote.
        123456789\tQ7\tGhost\tA ghost taxon that no database has.
        37578\tQ8\tNorthern gannet\t
        abc\tQ9\tBroken\tA line whose tax id is not a number.

        """

    /// A Mammal Diversity Database CSV with a few rows (own selection of names).
    static let mdd = """
        sciName,order,family,genus,mainCommonName,otherCommonNames,originalNameCombination
        Canis_lupus,CARNIVORA,CANIDAE,Canis,Gray Wolf,Wolf|Timber Wolf,Canis lupus
        Canis_familiaris,CARNIVORA,CANIDAE,Canis,Domestic Dog,Dog|Dingo,Canis familiaris
        Canis_latrans,CARNIVORA,CANIDAE,Canis,Coyote,,Canis latrans
        Felis_catus,CARNIVORA,FELIDAE,Felis,Domestic Cat,Cat,Felis catus
        Fakeus_nonexistus,CARNIVORA,FAKEIDAE,Fakeus,Nobody,,NA

        """

    /// A ColDP with the bird *Morus* and *Oenanthe* and the plant *Morus alba*, names in three languages.
    static let nameUsage = """
        ID\tparentID\tstatus\tscientificName\trank
        a\t\taccepted\tAnimalia\tkingdom
        ch\ta\taccepted\tChordata\tphylum
        av\tch\taccepted\tAves\tclass
        su\tav\taccepted\tSuliformes\torder
        sl\tsu\taccepted\tSulidae\tfamily
        mb\tsl\taccepted\tMorus\tgenus
        mbb\tmb\taccepted\tMorus bassanus\tspecies
        pa\tav\taccepted\tPasseriformes\torder
        mu\tpa\taccepted\tMuscicapidae\tfamily
        oe\tmu\taccepted\tOenanthe\tgenus
        p\t\taccepted\tPlantae\tkingdom
        ma\tp\taccepted\tMagnoliopsida\tclass
        ro\tma\taccepted\tRosales\torder
        mo\tro\taccepted\tMoraceae\tfamily
        mp\tmo\taccepted\tMorus\tgenus
        mpa\tmp\taccepted\tMorus alba\tspecies

        """
    static let vernacular = """
        taxonID\tname\tlanguage
        mb\tBasstölpel\tdeu
        mbb\tNorthern gannet\teng
        mbb\tFou de Bassan\tfra
        oe\tWheatears\teng
        mp\tMaulbeeren\tdeu
        mpa\tWeiße Maulbeere\tdeu
        mpa\tmûrier blanc\tfra

        """

    /// A directory holding the fixture's files, removed by `remove()`.
    struct Workspace {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stol-page-\(UUID().uuidString)")

        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }

        @discardableResult
        func write(_ path: String, _ text: String) throws -> URL {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file
        }

        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
        func remove() { try? FileManager.default.removeItem(at: url) }

        /// The NCBI fixture, the introductions, the MDD rows and the ColDP.
        func writeSources() throws {
            try write("ncbi/nodes.dmp", SpeciesContentTests.nodes)
            try write("ncbi/names.dmp", SpeciesContentTests.names)
            try write("wiki.tsv", SpeciesContentTests.intros)
            try write("mdd.csv", SpeciesContentTests.mdd)
            try write("coldp/NameUsage.tsv", SpeciesContentTests.nameUsage)
            try write("coldp/VernacularName.tsv", SpeciesContentTests.vernacular)
        }
    }

    /// An object's string members.
    static func strings(_ value: JSONValue?) -> [String: String] {
        guard case .object(let members)? = value else { return [:] }
        return Dictionary(members.compactMap { m in m.value.stringValue.map { (m.key, $0) } }, uniquingKeysWith: { _, b in b })
    }

    static func build(_ arguments: [String], in workspace: Workspace, name: String = "out.sqlite") throws -> (db: String, stdout: String, stderr: String) {
        let db = workspace.path(name)
        let run = try EngineBinary.run(["build-db"] + arguments + ["--out", db, "--build-date", "2026-01-01", "--top-n", "5"])
        guard run.code == 0 else { throw Fixtures.FixtureError(message: run.stderr) }
        return (db, run.stdout, run.stderr)
    }

    @Test func ncbiKeepsNamedSubspeciesSoThatDogIsTheDog() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.writeSources()
        let built = try Self.build(["--ncbi", workspace.path("ncbi")], in: workspace)
        #expect(built.stderr.contains("kept below species because they have a common name: 2 subspecies"), "\(built.stderr)")
        #expect(built.stdout.contains("below species 2,"), "\(built.stdout)")

        let engine = try EngineProcess(["--database", built.db])
        let found = try #require(await engine.result(SearchQueryRequest(query: "dog", limit: 3)))
        let first = try #require(found["results"]?.arrayValue?.first)
        #expect(first["id"] == 9615 && first["rank"] == "subspecies" && first["matchTier"] == "exact")
        let dog = try #require(await engine.result(TaxonGetRequest(id: 9615)))
        #expect(dog["parentId"] == 9612 && dog["preferredCommonName"] == "dog" && dog["rank"] == "subspecies")
        let lineage = await engine.result(TaxonAncestorsRequest(id: 9615))?["ancestors"]?.arrayValue?.compactMap { $0["scientificName"]?.stringValue }
        #expect(lineage == ["Eukaryota", "Metazoa", "Chordata", "Mammalia", "Carnivora", "Canidae", "Canis", "Canis lupus"])
        let children = await engine.result(TaxonChildrenRequest(id: 9612))?["children"]?.arrayValue?.compactMap { $0["id"]?.int64Value }
        #expect(children == [286419, 9615])
        let bySubspecies = await engine.result(SearchQueryRequest(rank: .subspecies, within: 9611))?["results"]?.arrayValue?.count
        #expect(bySubspecies == 2)

        // The dog and the wolf meet in the wolf; the dog and the dingo too, two steps apart.
        let compared = try #require(await engine.result(CompareTaxaRequest(a: 9615, b: 9612)))
        #expect(compared["lca"]?["id"] == 9612 && compared["taxonomicDistance"] == 1)
        #expect(compared["sharedClade"]?["relation"] == "aWithinB")
        #expect(await engine.result(DatabaseInfoRequest())?["taxaCount"] == 27)
        let bulk = try #require(await engine.result(CompareLCARequest(pairs: [[9615, 286419], [9615, 9685]])))
        #expect(bulk["lcas"] == [9612, 33554] && bulk["distances"] == [2, 7])

        // The dog's relatives are species, its own first; the wolf's never include its subspecies.
        for source in RelativesSource.allCases {
            let relatives = try #require(await engine.result(CompareRelativesRequest(id: 9615, n: 3, source: source)))
            #expect(relatives["source"]?.stringValue == source.rawValue)
            let ids = relatives["relatives"]?.arrayValue?.compactMap { $0["taxon"]?["id"]?.int64Value }
            #expect(ids?.prefix(2) == [9612, 9614], "\(source)")
            #expect(relatives["relatives"]?.arrayValue?.first?["distance"] == 1)
        }
        let wolf = await engine.result(CompareRelativesRequest(id: 9612))?["relatives"]?.arrayValue?.compactMap { $0["taxon"]?["id"]?.int64Value }
        #expect(wolf?.first == 9614 && wolf?.contains(9615) == false && wolf?.contains(286419) == false)
        let notSpecies = await engine.call(CompareRelativesRequest(id: 9611))
        #expect(notSpecies?["error"]?["data"]?["kind"] == "notASpecies")
    }

    @Test func wikipediaIntrosAreCheckedAttributedAndCredited() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.writeSources()
        let built = try Self.build(["--ncbi", workspace.path("ncbi"), "--wikipedia", workspace.path("wiki.tsv")], in: workspace)
        let summary = try #require(built.stdout.split(separator: "\n").first { $0.contains("descriptions from wiki.tsv") })
        #expect(summary.contains("3 kept (2 by title, 1 by opening)"), "\(summary)")
        for reason in ["1 neither title nor opening names the taxon", "1 title qualifier names another group", "1 about an ancestor (broader article)",
                       "1 taxon not in the database", "1 empty text"] {
            #expect(summary.contains(reason), "\(reason): \(summary)")
        }
        #expect(built.stdout.contains("9685 Felis catus: Wildcat"), "\(built.stdout)")
        #expect(built.stdout.contains("3497 Morus: Morus (bird) (the taxon is no bird)"), "\(built.stdout)")
        #expect(built.stdout.contains("descriptions 3"), "\(built.stdout)")
        #expect(built.stderr.contains("wiki.tsv:10: tax_id 'abc' is not a positive integer"), "\(built.stderr)")

        let engine = try EngineProcess(["--database", built.db])
        let dog = try #require(await engine.result(TaxonDetailRequest(id: 9615, lang: "de")))
        #expect(Self.strings(dog["description"]) == [
            "lang": "en", "text": "The dog is a domesticated descendant of the wolf, kept by people for thousands of years.",
            "sourceName": "English Wikipedia", "sourceTitle": "Dog", "sourceUrl": "https://en.wikipedia.org/wiki/Dog", "license": "CC BY-SA 3.0",
        ])
        let cat = try #require(await engine.result(TaxonDetailRequest(id: 9685)))
        #expect(cat["description"] == nil)
        let plantMorus = try #require(await engine.result(TaxonDetailRequest(id: 3497)))
        #expect(plantMorus["description"] == nil)
        #expect(await engine.result(TaxonDetailRequest(id: 37577))?["description"]?["sourceTitle"] == "Gannet")

        let about = try #require(await engine.result(AboutRequest()))
        let credit = try #require(about["sources"]?.arrayValue?.first { $0["attribution"]?.stringValue?.contains("English Wikipedia") == true })
        #expect(credit["license"] == "CC BY-SA 3.0" && credit["attributionRequired"] == true)
    }

    @Test func descriptionsTablesAndTheDatasetsOwnWords() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write("taxa/fixture.taxa", Fixtures.taxa)
        try workspace.write("taxa/dataset.info", "name: Fixture set\nversion: 1\nlicense: CC0 1.0 (written for the tests)\nattribution: tests\nbuild_date: 2026-01-01\n")
        try workspace.write("taxa/descriptions.tsv", """
            scientific_name\tlang\ttext
            Panthera leo\ten\tThe lion is a big cat of Africa that lives in groups.
            Panthera leo\tde\tDer Löwe ist eine große Katze Afrikas, die in Rudeln lebt.
            Panthera tigris\ten\tThe tiger is the largest cat, with stripes.

            """)
        try workspace.write("more.tsv", """
            scientific_name\tlang\ttext\tsource_title\tsource_url\tlicense\tsource_name
            Panthera tigris\tfr\tLe tigre est le plus grand des félins.\tTigre\thttps://example.org/tigre\tCC BY 4.0\tExample Encyclopedia
            Panthera tigris\ten\tA second English text, after the dataset's.\t\t\tCC BY 4.0\tExample Encyclopedia
            Nonexistus fakeus\ten\tNo such taxon.\t\t\t\t

            """)
        let built = try Self.build(["--taxa", workspace.path("taxa"), "--descriptions", workspace.path("more.tsv")], in: workspace)
        #expect(built.stdout.contains("descriptions from descriptions.tsv: 3 kept; 0 skipped"), "\(built.stdout)")
        #expect(built.stdout.contains("descriptions from more.tsv: 1 kept; 2 skipped (1 taxon already described in that language, 1 taxon not in the database)"), "\(built.stdout)")
        #expect(built.stderr.contains("more.tsv:4: no taxon is named Nonexistus fakeus"), "\(built.stderr)")

        let engine = try EngineProcess(["--database", built.db])
        let lion = try #require(await ChecklistBuildTests.find(engine, ["Eukaryota", "Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera", "Panthera leo"]))
        let tiger = try #require(await ChecklistBuildTests.find(engine, ["Eukaryota", "Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera", "Panthera tigris"]))
        let lionID = try #require(lion["id"]?.int64Value), tigerID = try #require(tiger["id"]?.int64Value)
        let de = try #require(await engine.result(TaxonDetailRequest(id: lionID, lang: "de-AT")))
        #expect(Self.strings(de["description"]) == [
            "lang": "de", "text": "Der Löwe ist eine große Katze Afrikas, die in Rudeln lebt.", "sourceName": "Fixture set", "license": "CC0 1.0",
        ])
        #expect(await engine.result(TaxonDetailRequest(id: lionID, lang: "es"))?["description"]?["lang"] == "en")
        let fr = try #require(await engine.result(TaxonDetailRequest(id: tigerID, lang: "fr"))?["description"])
        #expect(fr["sourceTitle"] == "Tigre" && fr["sourceUrl"] == "https://example.org/tigre" && fr["license"] == "CC BY 4.0")
        #expect(await engine.result(TaxonDetailRequest(id: tigerID))?["description"]?["text"] == "The tiger is the largest cat, with stripes.")
        let sources = await engine.result(AboutRequest())?["sources"]?.arrayValue?.compactMap { $0["attribution"]?.stringValue }
        #expect(sources?.contains("Descriptions: Example Encyclopedia, CC BY 4.0") == true, "\(sources ?? [])")
    }

    @Test func badDescriptionsFilesAreReportedWithFileAndLineAndChangeNothing() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write("taxa/fixture.taxa", Fixtures.taxa)
        try workspace.write("taxa/dataset.info", "name: Fixture\nlicense: CC0 1.0\nbuild_date: 2026-01-01\n")
        let badLine = try workspace.write("bad-line.tsv", "scientific_name\tlang\ttext\nPanthera leo\ten\tA cat.\nPanthera tigris\tEnglish\tA striped cat.\nFelis catus\ten\tA small cat.\n")
        let mislabelled = try workspace.write("mislabelled.tsv", "scientific_name\tlanguage\ttext\nPanthera leo\ten\tA cat.\n")

        let lenient = try Self.build(["--taxa", workspace.path("taxa"), "--descriptions", badLine.path, "--descriptions", mislabelled.path], in: workspace)
        #expect(lenient.stderr.contains("bad-line.tsv:3: lang 'English' is not a language tag (en, de, pt-BR); line skipped"), "\(lenient.stderr)")
        #expect(lenient.stderr.contains("mislabelled.tsv:1: unknown column 'language' in the header"), "\(lenient.stderr)")
        #expect(lenient.stdout.contains("descriptions from mislabelled.tsv: refused, nothing used"), "\(lenient.stdout)")
        #expect(lenient.stdout.contains("descriptions 2"), "\(lenient.stdout)")

        for (file, expected) in [(badLine, "bad-line.tsv:3: lang 'English'"), (mislabelled, "mislabelled.tsv:1: unknown column 'language'")] {
            let out = workspace.path("strict.sqlite")
            let strict = try EngineBinary.run(["build-db", "--taxa", workspace.path("taxa"), "--descriptions", file.path, "--out", out, "--strict", "--quiet"])
            #expect(strict.code != 0)
            #expect(strict.stderr.contains(expected), "\(strict.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let withoutNCBI = try EngineBinary.run(["build-db", "--taxa", workspace.path("taxa"), "--wikipedia", badLine.path, "--out", workspace.path("x.sqlite")])
        #expect(withoutNCBI.code != 0 && withoutNCBI.stderr.contains("--wikipedia keys its texts by NCBI tax id"))
    }

    @Test func namesFromOtherSourcesAreMergedWithTheirSource() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.writeSources()
        let built = try Self.build(
            ["--ncbi", workspace.path("ncbi"), "--names-from-mdd", workspace.path("mdd.csv"), "--names-from-coldp", workspace.path("coldp"),
             "--wikipedia", workspace.path("wiki.tsv")],
            in: workspace)
        let out = built.stdout
        // MDD: four of five matched (the dog as NCBI's subspecies), one unmatched.
        #expect(out.contains("5 source taxa with common names: 4 matched (3 accepted name, 1 species of the source, subspecies of the backbone), 1 unmatched (1 species)"), "\(out)")
        #expect(out.contains("unmatched: species Fakeus nonexistus"), "\(out)")
        #expect(out.contains("names added (5 en); 1 taxa gain a first name in en; 1 synonyms added"), "\(out)")
        #expect(out.contains("another preferred name: Canis lupus familiaris: \"dog\" here, \"Domestic Dog\" in the source"), "\(out)")
        #expect(out.contains("name of a relative: \"Dingo\" (Canis familiaris) is Canis lupus dingo's here"), "\(out)")
        // ColDP: the gannets' genus and the mulberry each get their own kingdom's names; the
        // wheatears' genus has only a plant namesake here and gets nothing.
        #expect(out.contains("same name, other group: Oenanthe"), "\(out)")
        // The dog's names from MDD make no difference to the wildcat's wrong link.
        #expect(out.contains("9685 Felis catus: Wildcat"), "\(out)")

        let engine = try EngineProcess(["--database", built.db])
        let names = try #require(await engine.result(TaxonNamesRequest(id: 9615))?["names"]?.arrayValue)
        let mddCredit = "Mammal Diversity Database (2025). v2.1. ASM. CC BY 4.0"
        #expect(names.contains { $0["name"] == "Domestic Dog" && $0["source"] == .string(mddCredit) && $0["isPreferred"] == false })
        #expect(names.contains { $0["name"] == "dog" && $0["source"] == nil && $0["isPreferred"] == true })
        #expect(names.contains { $0["name"] == "Canis familiaris" && $0["type"] == "synonym" && $0["source"] == .string(mddCredit) })
        #expect(!names.contains { $0["name"] == "Dingo" })
        let coyote = await engine.result(TaxonGetRequest(id: 9614))
        #expect(coyote?["preferredCommonName"] == "Coyote")
        // Homonyms across kingdoms: each Morus gets its own names.
        let gannets = await engine.result(TaxonNamesRequest(id: 37577, lang: "de"))?["names"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(gannets == ["Basstölpel"])
        let mulberries = await engine.result(TaxonNamesRequest(id: 3497))?["names"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(mulberries == ["Maulbeeren"])
        let whiteMulberry = await engine.result(TaxonGetRequest(id: 3498, lang: "fr"))
        #expect(whiteMulberry?["preferredCommonName"] == "mûrier blanc")
        #expect(await engine.result(TaxonNamesRequest(id: 48170))?["names"]?.arrayValue?.isEmpty == true)
        // Searchable in every language they came in.
        let search = await engine.result(SearchQueryRequest(query: "Weiße Maulbeere", lang: "de"))?["results"]?.arrayValue?.first?["id"]
        #expect(search == 3498)
        let sources = await engine.result(AboutRequest())?["sources"]?.arrayValue?.compactMap { $0["attribution"]?.stringValue } ?? []
        #expect(sources.contains("Names: " + mddCredit), "\(sources)")
    }
}

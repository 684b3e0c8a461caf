import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    @Suite struct ColDP {
        static let nameUsage = tsv([
            ["col:ID", "col:parentID", "col:status", "col:scientificName", "col:authorship", "col:rank"],
            ["k", "", "accepted", "Animalia", "", "kingdom"],
            ["c", "k", "accepted", "Mammalia", "", "class"],
            ["sf", "c", "accepted", "Feliformia", "", "suborder"],  // folded
            ["f", "sf", "accepted", "Felidae", "", "family"],
            ["g", "f", "accepted", "Panthera", "Oken, 1816", "genus"],
            ["t", "g", "accepted", "Panthera tigris", "(Linnaeus, 1758)", "species"],
            ["l", "g", "provisionally accepted", "Panthera leo", "(Linnaeus, 1758)", "species"],
            ["ts", "t", "accepted", "Panthera tigris altaica", "", "subspecies"],  // dropped
            ["v", "t", "accepted", "Panthera tigris var. alba", "", "variety"],  // dropped
            ["s1", "t", "synonym", "Felis tigris", "Linnaeus, 1758", ""],
            ["a1", "t", "ambiguous synonym", "Felis regalis", "", ""],  // a synonym of both big cats
            ["a2", "l", "ambiguous synonym", "Felis regalis", "", ""],
            ["m", "l", "misapplied", "Panthera spelaea", "", "species"],
            ["s2", "ts", "synonym", "Tigris altaica", "", ""],  // synonym of a dropped subspecies
            ["s3", "nowhere", "synonym", "Felis nulla", "", ""],  // line 16: accepted id points at nothing
        ])

        static let vernacular = tsv([
            ["taxonID", "name", "language", "preferred"],
            ["t", "Tiger", "eng", "true"],
            ["t", "Tigre", "spa", ""],
            ["t", "Tigre", "fra", ""],
            ["t", "Tiger", "deu", ""],
            ["s1", "Royal tiger", "eng", ""],  // through the synonym
            ["l", "Lion", "eng", ""],
            ["ts", "Amur tiger", "eng", ""],  // on a dropped subspecies
            ["f", "cats", "zzz", ""],
        ])

        static func check(_ output: ColDPImporter.Output, file: String) throws {
            let result = output.result
            #expect(Set(result.taxa.map(\.scientificName)) == ["Animalia", "Mammalia", "Felidae", "Panthera", "Panthera tigris", "Panthera leo"])
            #expect(output.counts.belowSpecies == 2)
            #expect(output.counts.folded == 1)
            #expect(output.counts.synonyms == 3)
            #expect(output.counts.misapplied == 1)
            #expect(output.counts.synonymsOfDropped == 1)
            #expect(output.counts.commonNames == 7)
            let tiger = try #require(result.taxon("Panthera tigris"))
            let lion = try #require(result.taxon("Panthera leo"))
            #expect(tiger.names.filter { $0.type == .synonym }.map(\.name) == ["Felis tigris", "Felis regalis"])
            #expect(lion.names.filter { $0.type == .synonym }.map(\.name) == ["Felis regalis", "Panthera spelaea"])
            #expect(lion.status == .doubtful)
            #expect(tiger.status == .accepted)
            #expect(tiger.year == 1758)
            let common = tiger.names.filter { $0.type == .common }.map { "\($0.lang):\($0.name)" }
            #expect(common == ["en:Tiger", "es:Tigre", "fr:Tigre", "de:Tiger", "en:Royal tiger"])
            #expect(result.taxon("Felidae")?.names.map(\.lang) == ["und"])
            let byKey = Dictionary(uniqueKeysWithValues: result.taxa.map { ($0.key, $0.scientificName) })
            #expect(result.taxon("Felidae")?.parentKey.flatMap { byKey[$0] } == "Mammalia")
            #expect(result.skipped.map(\.description) == ["\(file):16: synonym Felis nulla points at id nowhere, which is not in the table; skipped"])
        }

        @Test func nameUsageFolder() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            // Table names match ignoring case, '-' and '_'.
            let url = try fixture.folder("cats", ["Name_Usage.TSV": Self.nameUsage, "vernacular-name.tsv": Self.vernacular, "distribution.tsv": tsv([["taxonID", "area"], ["t", "Asia"]])])
            let output = try ColDPImporter().parse(url)
            try Self.check(output, file: "Name_Usage.TSV")
            #expect(output.counts.skippedTables == ["distribution.tsv": 1])
        }

        @Test func nameUsageZip() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            let url = try fixture.zip("cats.zip", ["NameUsage.tsv": Self.nameUsage, "VernacularName.tsv": Self.vernacular])
            try Self.check(try ColDPImporter().parse(url), file: "cats.zip:NameUsage.tsv")
        }

        @Test func nameTaxonAndSynonymTables() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            let url = try fixture.folder("split", [
                "Name.tsv": tsv([
                    ["ID", "scientificName", "authorship", "rank"],
                    ["n1", "Felidae", "", "family"], ["n2", "Panthera", "", "genus"], ["n3", "Panthera onca", "(Linnaeus, 1758)", "species"],
                    ["n4", "Felis onca", "Linnaeus, 1758", "species"],
                ]),
                "Taxon.tsv": tsv([["ID", "parentID", "nameID", "provisional"], ["1", "", "n1", ""], ["2", "1", "n2", ""], ["3", "2", "n3", "true"], ["4", "2", "n404", ""]]),
                "synonym.tsv": tsv([["ID", "taxonID", "nameID", "status"], ["", "3", "n4", "synonym"]]),
                "VernacularName.tsv": tsv([["taxonID", "name", "language"], ["3", "Jaguar", "eng"], ["3", "Yaguareté", "grn"]]),
            ])
            let output = try ColDPImporter().parse(url)
            let result = output.result
            #expect(result.taxa.map(\.scientificName) == ["Felidae", "Panthera", "Panthera onca"])
            let jaguar = try #require(result.taxon("Panthera onca"))
            #expect(jaguar.status == .doubtful)
            #expect(jaguar.names.map { "\($0.lang):\($0.name)" } == ["la:Felis onca", "en:Jaguar", "gn:Yaguareté"])
            #expect(result.skipped.map(\.description) == ["Taxon.tsv:5: nameID n404 is not in Name.tsv; row skipped"])
            let assembled = try TaxonomyAssembler().assemble([result])
            #expect(assembled.issues == result.skipped)  // nothing more
        }

        /// A taxon that is its own parent is refused and reported like any bad row, not made a
        /// root; what hangs below it goes with it.
        @Test func aTaxonThatIsItsOwnParentIsRefused() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            let url = try fixture.folder("own", ["NameUsage.tsv": tsv([
                ["ID", "parentID", "status", "scientificName", "rank"],
                ["1", "", "accepted", "Animalia", "kingdom"],
                ["2", "2", "accepted", "Chordata", "phylum"],  // line 3
                ["3", "2", "accepted", "Aves", "class"],
                ["4", "1", "accepted", "Arthropoda", "phylum"],
            ])])
            let result = try ColDPImporter().parse(url).result
            #expect(result.taxa.map(\.scientificName) == ["Animalia", "Aves", "Arthropoda"])
            #expect(result.skipped.map(\.description) == ["NameUsage.tsv:3: Chordata (id 2) is its own parent; row skipped"])
            #expect(result.skipped.first?.kind == .ownParent)
            let assembled = try TaxonomyAssembler().assemble([result])
            #expect(assembled.taxa.map(\.scientificName) == ["Animalia", "Arthropoda"])
            #expect(assembled.issues.map(\.kind) == [.ownParent, .missingParent])
            #expect(assembled.sources.first?.rowsSkipped == 2)
        }

        @Test func duplicateIDsAndMissingTables() throws {
            let fixture = try ChecklistFixture()
            defer { fixture.remove() }
            let url = try fixture.folder("dup", ["NameUsage.tsv": tsv([["ID", "parentID", "status", "scientificName", "rank"], ["1", "", "accepted", "Aves", "class"], ["1", "", "accepted", "Reptilia", "class"]])])
            let output = try ColDPImporter().parse(url)
            #expect(output.result.taxa.map(\.scientificName) == ["Aves"])
            #expect(output.result.skipped.map(\.description) == ["NameUsage.tsv:3: duplicate id 1 (first at NameUsage.tsv:2); row skipped"])
            let empty = try ColDPImporter().parse(try fixture.folder("empty", ["readme.md": "nothing"]))
            #expect(empty.result.taxa.isEmpty)
            #expect(empty.result.skipped.map(\.description) == ["empty:0: no NameUsage table, nor Name and Taxon tables; the package is skipped"])
        }
    }
}

import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    @Suite struct NCBITaxdump {
        static let dmp = Fixtures.taxdump

        static let nodes = dmp([
            ["1", "1", "no rank", "", "8"],
            ["131567", "1", "no rank", "", "8"],  // cellular organisms: folded
            ["2759", "131567", "superkingdom", "", "1"],
            ["33208", "2759", "kingdom", "", "1"],
            ["6072", "33208", "clade", "", "1"],  // folded
            ["7711", "6072", "phylum", "", "1"],
            ["40674", "7711", "class", "", "2"],
            ["9347", "40674", "no rank", "", "2"],  // line 8, folded
            ["33554", "9347", "order", "", "2"],
            ["9681", "33554", "family", "", "2"],
            ["338152", "9681", "subfamily", "", "2"],  // folded
            ["9688", "338152", "genus", "", "2"],
            ["9689", "9688", "species", "", "2"],
            ["9690", "9689", "subspecies", "", "2"],  // dropped
            ["1234567", "9690", "no rank", "", "2"],  // dropped
            ["10239", "1", "domain", "", "9"],  // Viruses, as newer dumps name the rank
            ["555", "888", "species", "", "1"],  // line 17: parent missing from the dump
            ["700", "701", "genus", "", "1"],  // line 18: a cycle
            ["701", "700", "genus", "", "1"],
            ["702", "700", "species", "", "1"],
            ["bad line"],
        ])

        static let names = dmp([
            ["1", "root", "", "scientific name"],
            ["131567", "cellular organisms", "", "scientific name"],
            ["2759", "Eukaryota", "", "scientific name"],
            ["2759", "eucaryotes", "", "genbank common name"],
            ["33208", "Metazoa", "", "scientific name"],
            ["33208", "animals", "", "common name"],
            ["7711", "Chordata", "", "scientific name"],
            ["40674", "Mammalia", "", "scientific name"],
            ["33554", "Carnivora", "", "scientific name"],
            ["9681", "Felidae", "", "scientific name"],
            ["9688", "Panthera", "", "scientific name"],
            ["9689", "Panthera leo", "", "scientific name"],
            ["9689", "lion", "", "genbank common name"],
            ["9689", "Lion", "", "common name"],
            ["9689", "Felis leo", "", "synonym"],
            ["9689", "Felis leo Linnaeus, 1758", "", "authority"],
            ["9690", "Panthera leo persica", "", "scientific name"],
            ["10239", "Viruses", "", "scientific name"],
            ["555", "Orphanus orphanus", "", "scientific name"],
        ])

        @Test func foldsRanksAndMapsNames() throws {
            let output = try parseTaxdump(nodes: Self.nodes, names: Self.names)
            let result = output.result
            #expect(output.foldedNodes == 4)
            #expect(output.droppedBelowSpecies == 2)
            #expect(result.sourceFiles == ["nodes.dmp", "names.dmp"])

            func parent(_ name: String) -> String?? { result.taxon(name).map(\.parentKey) }
            #expect(parent("Eukaryota") == .some(nil))
            #expect(parent("Viruses") == .some(nil))
            #expect(result.taxon("Eukaryota")?.rank == .domain && result.taxon("Viruses")?.rank == .domain)
            #expect(parent("Metazoa") == "ncbi|2759")
            #expect(parent("Chordata") == "ncbi|33208")
            #expect(parent("Carnivora") == "ncbi|40674")
            #expect(parent("Panthera") == "ncbi|9681")
            let leo = try #require(result.taxon("Panthera leo"))
            #expect(leo.key == "ncbi|9689" && leo.fixedID == 9689 && leo.rank == .species && leo.parentKey == "ncbi|9688")
            #expect(leo.origin == SourceLocation(file: "nodes.dmp", line: 13))
            #expect(leo.names == [
                SourceName("lion", lang: "en", type: .common, isPreferred: true),
                SourceName("Lion", lang: "en", type: .common),
                SourceName("Felis leo", lang: "la", type: .synonym),
            ])
            #expect(result.taxon("Metazoa")?.names == [SourceName("animals", lang: "en", type: .common)])
            for gone in ["root", "cellular organisms", "Panthera leo persica"] { #expect(result.taxon(gone) == nil) }
            #expect(!result.taxa.contains { $0.key == "ncbi|6072" || $0.key == "ncbi|1234567" })
        }

        @Test func badNodesReportedWithLines() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            try dir.write("nodes.dmp", Self.nodes)
            try dir.write("names.dmp", Self.names)
            try dir.gzip("nodes.dmp")
            try FileManager.default.removeItem(at: dir.url.appendingPathComponent("nodes.dmp"))  // read nodes.dmp.gz
            let result = try NCBITaxdumpImporter().parse(directory: dir.url).result
            #expect(result.sourceFiles == ["nodes.dmp.gz", "names.dmp"])
            let skipped = result.skipped.map { ($0.location?.line ?? 0, $0.message) }
            #expect(skipped.contains { $0.0 == 21 && $0.1.contains("expected") })
            #expect(skipped.contains { ($0.0 == 18 || $0.0 == 19) && $0.1.contains("cycle") })
            #expect(!result.taxa.contains { $0.fixedID == 702 })  // hangs from the cycle
            let assembled = try TaxonomyAssembler().assemble([result])
            #expect(assembled.issues.contains { $0.location?.line == 17 && $0.message.contains("ncbi|888") })
            #expect(assembled.taxa.count == 9)
        }

        @Test func rankLevelsMatchTheEngine() {
            for rank in Rank.allCases { #expect(NCBITaxdumpImporter.level(of: rank.rawValue) == Int8(rank.level)) }
            #expect(NCBITaxdumpImporter.level(of: "superkingdom") == 0)
            #expect(NCBITaxdumpImporter.level(of: "subfamily") == -1)
        }

        @Test func integersReadAsInt64ReadsText() {
            let texts = ["1", "0", "-5", "+7", "", "+", "-", "12a", " 1", "1 ", "007", "9223372036854775807", "9223372036854775808",
                         "-9223372036854775808", "-9223372036854775809", "99999999999999999999"]
            for text in texts {
                var line = "x" + text + "y"
                let read = line.withUTF8 { NCBITaxdumpImporter.integer($0, 1..<(1 + text.utf8.count)) }
                #expect(read == Int64(text), "\(text)")
            }
        }

        @Test func fieldsOfDmpLines() {
            func fields(_ line: String, _ count: Int) -> [String] {
                var line = line
                return line.withUTF8 { NCBITaxdumpImporter.fields($0, count: count) }
            }
            #expect(fields("9606\t|\tHomo sapiens\t|\t\t|\tscientific name\t|", 4) == ["9606", "Homo sapiens", "", "scientific name"])
            #expect(fields("9606\t|\tHomo sapiens\t|\t\t|\tscientific name\t|\r", 2) == ["9606", "Homo sapiens"])
            #expect(fields("1\t|\t1\t|\tno rank", 3) == ["1", "1", "no rank"])
            #expect(fields("bad line", 3) == ["bad line"])
            #expect(fields("\t|", 3) == [])
            #expect(fields("", 3) == [])
        }

        /// names.dmp is read on a thread of its own and handed over in batches: its bad lines are
        /// still reported with their line, after the nodes', names of tax ids the nodes lack are
        /// ignored, and the last scientific name wins, whichever batch each is in.
        @Test(arguments: [1, 2, 3, NCBITaxdumpImporter.namesBatchLines])
        func namesReadBesideNodes(batchLines: Int) throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            try dir.write("nodes.dmp", Self.nodes)
            let names = Self.names + Self.dmp([
                ["not a tax id", "Nothing", "", "scientific name"],  // line 20
                ["424242", "Nobody nowhere", "", "scientific name"],
                ["424242", "nobody", "", "common name"],
                ["9688", "Panthera Oken, 1816", "", "scientific name"],  // a second scientific name: the last wins
            ])
            try dir.write("names.dmp", names)
            var importer = NCBITaxdumpImporter()
            importer.batchLines = batchLines
            let result = try importer.parse(directory: dir.url).result
            #expect(result.taxa.map(\.scientificName) == (try NCBITaxdumpImporter().parse(directory: dir.url).result.taxa.map(\.scientificName)))
            let located = result.skipped.map { ($0.location?.file ?? "", $0.location?.line ?? 0) }
            let nodesIssue = try #require(located.firstIndex { $0 == ("nodes.dmp", 21) })
            let namesIssue = try #require(located.firstIndex { $0 == ("names.dmp", 20) })
            #expect(nodesIssue < namesIssue)
            #expect(!result.taxa.contains { $0.scientificName.hasPrefix("Nobody") || $0.names.contains { $0.name == "nobody" } })
            #expect(result.taxon("Panthera Oken, 1816")?.fixedID == 9688)
            #expect(result.taxon("Panthera leo")?.names.count == 3)
        }

        /// A damaged file fails the parse whichever of the two threads reads it, and the other
        /// thread's work does not keep the parse waiting.
        @Test(arguments: ["names.dmp", "nodes.dmp"], [1, NCBITaxdumpImporter.namesBatchLines])
        func damagedFileFailsTheParse(damaged: String, batchLines: Int) throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            try dir.write("nodes.dmp", Self.nodes)
            try dir.write("names.dmp", Self.names)
            let compressed = try Data(contentsOf: dir.gzip(damaged))
            try dir.write(damaged + ".gz", compressed.prefix(compressed.count / 2))
            try FileManager.default.removeItem(at: dir.url.appendingPathComponent(damaged))
            var importer = NCBITaxdumpImporter()
            importer.batchLines = batchLines
            #expect(throws: GzipError.self) { try importer.parse(directory: dir.url) }
        }

        @Test func missingFileIsNamed() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            try dir.write("nodes.dmp", Self.nodes)
            #expect(throws: SourceIssue.self) { try NCBITaxdumpImporter().parse(directory: dir.url) }
        }
    }
}

import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    @Suite struct ParentChildTable {
        static let rows: [[String]] = [
            ["id", "parent_id", "name", "rank", "leaf_count"],
            ["1", "", "cellular organisms", "no rank", "9"],  // line 2
            ["2", "1", "Eukaryota", "superkingdom"],
            ["3", "2", "Metazoa", "Kingdom"],
            ["4", "3", "", ""],  // line 5: unnamed clade
            ["5", "4", "Homo sapiens", ""],
            ["6", "5", "Homo sapiens neanderthalensis", "subspecies"],
            ["7", "4", "Candidatus Pelagibacter", "GENUS"],
            ["8", "4", "Escherichia coli", "strain"],
            ["9", "99", "Orphan", ""],  // line 10: parent missing
            ["10", "11", "Loop A", ""],  // line 11: cycle
            ["11", "10", "Loop B", ""],
            ["12", "11", "Below the loop", ""],
            ["5", "4", "Duplicate", ""],  // line 14
            ["abc", "1", "Bad id", ""],
            ["0", "1", "Zero", ""],
            ["4503599627370496", "1", "Too big", ""],
            ["13", "x", "Bad parent", ""],
            ["14", "14", "Own parent", ""],  // line 19
            ["15", "1", "Drosophila melanogaster", "", "", "extra"],
        ]

        static var tsv: String { rows.map { $0.joined(separator: "\t") + "\n" }.joined() }

        @Test func readsTreeAndRanks() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let result = try ParentChildTableImporter(credits: ["Test tree"]).parse(file: dir.write("nodes.tsv", Self.tsv))
            let root = try #require(result.taxon("cellular organisms"))
            #expect(root.key == "table|1" && root.parentKey == nil && root.rank == nil && root.fixedID == 1)
            #expect(root.origin == SourceLocation(file: "nodes.tsv", line: 2))
            #expect(result.taxon("Eukaryota")?.rank == .domain)
            #expect(result.taxon("Metazoa")?.rank == .kingdom)
            let unnamed = try #require(result.taxon("Unnamed clade 4"))
            #expect(unnamed.parentKey == "table|3" && unnamed.rank == nil)
            #expect(result.taxon("Homo sapiens")?.rank == .species)
            #expect(result.taxon("Homo sapiens neanderthalensis")?.rank == nil)
            #expect(result.taxon("Candidatus Pelagibacter")?.rank == .genus)
            #expect(result.taxon("Escherichia coli")?.rank == .species)
            #expect(result.taxon("Drosophila melanogaster")?.rank == .species)
            #expect(result.credits == ["Test tree"] && result.sourceFiles == ["nodes.tsv"])
        }

        @Test func badRowsReportedWithLines() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let result = try ParentChildTableImporter().parse(file: dir.write("nodes.tsv", Self.tsv))
            let skipped = result.skipped.map { ($0.location?.line ?? 0, $0.message) }
            #expect(skipped.map(\.0) == [14, 15, 16, 17, 18])
            #expect(skipped[0].1 == "duplicate id 5; row skipped")
            #expect(skipped[1].1.contains("'abc'") && skipped[2].1.contains("'0'") && skipped[3].1.contains("'4503599627370496'"))
            #expect(skipped[4].1.contains("parent_id 'x'"))
            #expect(result.taxon("Duplicate") == nil)

            let assembled = try TaxonomyAssembler().assemble([result])
            let issues = assembled.issues.map { ($0.location?.line, $0.message) }
            #expect(issues.contains { $0.0 == 10 && $0.1.contains("Orphan has a parent that does not exist (table|99)") })
            #expect(issues.contains { $0.0 == 19 && $0.1.contains("Own parent is its own parent") })
            #expect(issues.contains { ($0.0 == 11 || $0.0 == 12) && $0.1.contains("parent cycle") })
            #expect(issues.contains { $0.0 == nil && $0.1.contains("1 more rows dropped") })  // Below the loop
            let kept = Set(assembled.taxa.map(\.scientificName))
            #expect(!kept.contains("Loop A") && !kept.contains("Below the loop") && !kept.contains("Orphan"))
            #expect(kept.contains("Homo sapiens neanderthalensis"))
            // Source ids are kept.
            let sapiens = try #require(assembled.taxa.firstIndex { $0.scientificName == "Homo sapiens" })
            #expect(assembled.ids[sapiens] == 5)
        }

        @Test func duplicateAmongIncreasingIds() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let file = try dir.write("t.tsv", "id\tparent_id\tname\n1\t\tA\n2\t1\tB\n2\t1\tC\n3\t1\tD\n1\t\tE\n")
            let result = try ParentChildTableImporter().parse(file: file)
            #expect(result.skipped.map { $0.location?.line } == [4, 6])
            #expect(result.taxa.map(\.scientificName) == ["A", "B", "D"])
        }

        @Test func csvGzipAndSniffing() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let csv = "name,id,parent_id\n\"Root, the\",1,\n\"Homo sapiens\",2,1\n"
            try dir.write("tree.csv", csv)
            let fromCSV = try ParentChildTableImporter().parse(file: dir.gzip("tree.csv"))
            #expect(fromCSV.taxa.map(\.scientificName) == ["Root, the", "Homo sapiens"])
            #expect(fromCSV.taxa.map(\.rank) == [nil, .species])
            #expect(fromCSV.sourceFiles == ["tree.csv.gz"])

            try dir.write("tree-data", csv)
            #expect(try ParentChildTableImporter().parse(file: dir.gzip("tree-data", as: "tree-data.gz")).taxa.count == 2)
            try dir.write("tabs", "id\tparent_id\tname\n1\t\tRoot, the\n")
            #expect(try ParentChildTableImporter().parse(file: dir.url.appendingPathComponent("tabs")).taxa.map(\.scientificName) == ["Root, the"])

            let missing = try dir.write("bad.tsv", "id\tname\n1\tA\n")
            #expect(throws: DelimitedError.missingColumn("parent_id", available: ["id", "name"])) { try ParentChildTableImporter().parse(file: missing) }
        }

        @Test func binomialRule() {
            for name in ["Homo sapiens", "Cænolestes caniventer", "Aedes aegypti-like"] {
                #expect(ParentChildTableImporter.looksLikeBinomial(name), "\(name)")
            }
            for name in ["Homo", "homo sapiens", "Homo Sapiens", "Homo sapiens sapiens", "Bacillus sp.", "Candidatus Pelagibacter", "HIV 1", "Homo  sapiens", "X y"] {
                #expect(!ParentChildTableImporter.looksLikeBinomial(name), "\(name)")
            }
            #expect(ParentChildTableImporter.rank("Order", name: "Homo sapiens") == .order)
            #expect(ParentChildTableImporter.rank("superkingdom", name: "Bacteria") == .domain)
            #expect(ParentChildTableImporter.rank("clade", name: "Bilateria") == nil)
            #expect(ParentChildTableImporter.rank(nil, name: "Bilateria") == nil)
        }
    }
}

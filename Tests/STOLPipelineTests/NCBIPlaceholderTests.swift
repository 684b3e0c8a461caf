import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    /// NCBI's 2025 ranks and its placeholder names.
    @Suite struct NCBIPlaceholders {
        static let nodes = NCBITaxdump.dmp([
            ["1", "1", "no rank", "", "8"],
            ["131567", "1", "cellular root", "", "8"],  // cellular organisms: folded
            ["2", "131567", "domain", "", "0"],  // Bacteria
            ["10239", "1", "acellular root", "", "9"],  // Viruses: a domain-level root
            ["2559587", "10239", "realm", "", "9"],  // Riboviria: folded
            ["2732396", "2559587", "kingdom", "", "9"],  // Orthornavirae
            ["1224", "2", "phylum", "", "0"],
            ["1236", "1224", "class", "", "0"],
            ["91347", "1236", "order", "", "0"],
            ["543", "91347", "family", "", "0"],
            ["561", "543", "genus", "", "0"],
            ["562", "561", "species", "", "0"],  // Escherichia coli
            ["1400", "561", "species", "", "0"],  // Escherichia sp. 'Lyon'
            ["1401", "1400", "strain", "", "0"],  // below a placeholder species: dropped as below species
            ["2323", "2", "no rank", "", "0"],  // unclassified Bacteria (folded anyway)
            ["77133", "2323", "species", "", "0"],  // uncultured bacterium
            ["48479", "2", "no rank", "", "0"],  // environmental samples
            ["1500", "48479", "species", "", "0"],  // Candidatus Realis: real, re-attached to Bacteria
            ["1600", "561", "species", "", "0"],  // Escherichia cf. coli X1
            ["1700", "561", "species", "", "0"],  // unidentified enterobacterium
            ["1800", "561", "forma specialis", "", "0"],  // Escherichia coli f. sp. nova: folded, not a placeholder
            ["2787854", "1", "no rank", "", "11"],  // other entries: its whole subtree goes
            ["28384", "2787854", "no rank", "", "11"],
            ["32630", "28384", "species", "", "11"],  // synthetic construct
            ["29000", "28384", "genus", "", "11"],  // a "genus" of vectors
        ])

        static let names = NCBITaxdump.dmp([
            ["1", "root", "", "scientific name"],
            ["131567", "cellular organisms", "", "scientific name"],
            ["2", "Bacteria", "", "scientific name"],
            ["10239", "Viruses", "", "scientific name"],
            ["2559587", "Riboviria", "", "scientific name"],
            ["2732396", "Orthornavirae", "", "scientific name"],
            ["1224", "Pseudomonadota", "", "scientific name"],
            ["1236", "Gammaproteobacteria", "", "scientific name"],
            ["91347", "Enterobacterales", "", "scientific name"],
            ["543", "Enterobacteriaceae", "", "scientific name"],
            ["561", "Escherichia", "", "scientific name"],
            ["562", "Escherichia coli", "", "scientific name"],
            ["1400", "Escherichia sp. 'Lyon'", "", "scientific name"],
            ["1401", "Escherichia sp. 'Lyon' strain 7", "", "scientific name"],
            ["2323", "unclassified Bacteria", "", "scientific name"],
            ["77133", "uncultured bacterium", "", "scientific name"],
            ["48479", "environmental samples", "", "scientific name"],
            ["1500", "Candidatus Realis", "", "scientific name"],
            ["1600", "Escherichia cf. coli X1", "", "scientific name"],
            ["1700", "unidentified enterobacterium", "", "scientific name"],
            ["1800", "Escherichia coli f. sp. nova", "", "scientific name"],
            ["2787854", "other entries", "", "scientific name"],
            ["28384", "other sequences", "", "scientific name"],
            ["32630", "synthetic construct", "", "scientific name"],
            ["29000", "Binary", "", "scientific name"],
        ])

        static func parse(dropPlaceholders: Bool) throws -> NCBITaxdumpImporter.Output {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            try dir.write("nodes.dmp", Self.nodes)
            try dir.write("names.dmp", Self.names)
            return try NCBITaxdumpImporter(dropPlaceholders: dropPlaceholders).parse(directory: dir.url)
        }

        @Test func placeholdersLeftOutAndCounted() throws {
            let output = try Self.parse(dropPlaceholders: true)
            let result = output.result
            #expect(Set(result.taxa.map(\.scientificName)) == [
                "Bacteria", "Viruses", "Orthornavirae", "Pseudomonadota", "Gammaproteobacteria", "Enterobacterales",
                "Enterobacteriaceae", "Escherichia", "Escherichia coli", "Candidatus Realis",
            ])
            #expect(output.placeholders.byKind == [.openNomenclature: 2, .uncultured: 1, .unidentified: 1, .sequences: 2])
            #expect(output.placeholders.total == 6)
            #expect(output.droppedBelowSpecies == 1)
            // A real species under "environmental samples" hangs from Bacteria.
            #expect(result.taxon("Candidatus Realis")?.parentKey == "ncbi|2")
            let assembled = try TaxonomyAssembler().assemble([result])
            #expect(assembled.issues.isEmpty, "\(assembled.issues)")
        }

        @Test func placeholdersKeptOnRequest() throws {
            let output = try Self.parse(dropPlaceholders: false)
            let names = Set(output.result.taxa.map(\.scientificName))
            #expect(names.isSuperset(of: ["Escherichia sp. 'Lyon'", "uncultured bacterium", "Escherichia cf. coli X1", "unidentified enterobacterium"]))
            #expect(output.result.taxa.count == 16)
            #expect(output.result.taxon("synthetic construct")?.parentKey == nil)
            #expect(output.placeholders.total == 0)
            #expect(output.result.taxon("uncultured bacterium")?.parentKey == "ncbi|2")
        }

        @Test func ranksOf2025Dumps() throws {
            let result = try Self.parse(dropPlaceholders: true).result
            // Viruses (acellular root) is a domain-level root; its realm folds, so the kingdom hangs from it.
            #expect(result.taxon("Viruses")?.rank == .domain)
            #expect(result.taxon("Viruses")?.parentKey == nil)
            #expect(result.taxon("Bacteria")?.rank == .domain)
            #expect(result.taxon("Bacteria")?.parentKey == nil)
            #expect(result.taxon("Orthornavirae")?.parentKey == "ncbi|10239")
            #expect(result.taxon("Riboviria") == nil)
            #expect(result.taxon("cellular organisms") == nil)
        }

        @Test func placeholderNames() {
            let cases: [(String, PlaceholderName?)] = [
                ("Bidens sp. 'Lyon'", .openNomenclature), ("Polyangium sp.", .openNomenclature), ("Riedelia aff. wrayi SBG 83-203", .openNomenclature),
                ("Rhizochromulina cf. marina", .openNomenclature), ("uncultured bacterium", .uncultured), ("Uncultured archaeon", .uncultured),
                ("environmental samples", .environmentalSamples), ("Haptophyta environmental samples", .environmentalSamples),
                ("unclassified Bacteria", .unclassified), ("unidentified plasmid", .unidentified),
                ("Escherichia coli", nil), ("Fusarium oxysporum f. sp. cucumerinum", nil), ("Spathiphyllum", nil), ("Aspidosperma", nil),
                ("Pseudomonas spp", nil), ("Candidatus Pelagibacter ubique", nil),
                ("other entries", .sequences), ("unclassified entries", .sequences), ("unclassified sequences", .sequences),
            ]
            for (name, kind) in cases { #expect(PlaceholderName.classify(name) == kind, "\(name)") }
        }

        @Test func rankFolding() {
            #expect(RankFolding("Species") == .kept(.species))
            #expect(RankFolding("division") == .kept(.phylum))
            #expect(RankFolding("superkingdom") == .kept(.domain))
            #expect(RankFolding("acellular root") == .kept(.domain))
            #expect(RankFolding("realm") == .folded)
            #expect(RankFolding("cellular root") == .folded)
            #expect(RankFolding("subfamily") == .folded)
            #expect(RankFolding("species group") == .folded)
            for below in ["subspecies", "variety", "var.", "form", "forma", "infraspecific name", "strain", "serotype"] {
                #expect(RankFolding(below) == .belowSpecies, "\(below)")
            }
            #expect(RankFolding("  ") == .unranked)
        }

        @Test func languageTags() {
            let cases = [
                ("en", "en"), ("eng", "en"), ("English", "en"), ("spa", "es"), ("fra", "fr"), ("fre", "fr"), ("deu", "de"), ("ger", "de"),
                ("Turkish", "tr"), ("tur", "tr"), ("haw", "haw"), ("pt-br", "pt-BR"), ("zh_hant", "zh-Hant"), ("Klingon", "und"),
                ("", "und"), ("xx", "und"),
            ]
            for (text, tag) in cases { #expect(LanguageTag.bcp47(text) == tag, "\(text)") }
        }
    }
}

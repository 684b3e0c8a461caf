import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    /// `--ncbi` keeps the subspecies and varieties that have a common name, under their species.
    @Suite struct NCBIBelowSpecies {
        static let dmp = NCBITaxdump.dmp

        static let nodes = dmp([
            ["2759", "2759", "superkingdom", "", "1"],
            ["33208", "2759", "kingdom", "", "1"],
            ["9608", "33208", "family", "", "2"],
            ["9611", "9608", "genus", "", "2"],
            ["9612", "9611", "species", "", "2"],
            ["9615", "9612", "subspecies", "", "2"],  // dog: named, kept
            ["286419", "9612", "subspecies", "", "2"],  // dingo: named, kept
            ["9614", "9612", "subspecies", "", "2"],  // unnamed: dropped
            ["42", "9615", "strain", "", "2"],  // a named strain: dropped, ranks stop at variety
            ["33090", "2759", "kingdom", "", "4"],
            ["3655", "33090", "genus", "", "4"],
            ["3656", "3655", "species", "", "4"],
            ["1000", "3656", "subspecies", "", "4"],  // Cucumis melo subsp. melo: unnamed, dropped
            ["3658", "1000", "varietas", "", "4"],  // named variety under it: kept, under the species
            ["7", "9611", "subspecies", "", "2"],  // a named subspecies under a genus: not under a species, folded
        ])

        static let names = dmp([
            ["2759", "Eukaryota", "", "scientific name"],
            ["33208", "Metazoa", "", "scientific name"],
            ["9608", "Canidae", "", "scientific name"],
            ["9611", "Canis", "", "scientific name"],
            ["9612", "Canis lupus", "", "scientific name"],
            ["9612", "gray wolf", "", "genbank common name"],
            ["9615", "Canis lupus familiaris", "", "scientific name"],
            ["9615", "dog", "", "genbank common name"],
            ["286419", "Canis lupus dingo", "", "scientific name"],
            ["286419", "dingo", "", "genbank common name"],
            ["9614", "Canis lupus lupus", "", "scientific name"],
            ["42", "Canis lupus familiaris strain X", "", "scientific name"],
            ["42", "lab dog", "", "genbank common name"],
            ["33090", "Viridiplantae", "", "scientific name"],
            ["3655", "Cucumis", "", "scientific name"],
            ["3656", "Cucumis melo", "", "scientific name"],
            ["3656", "muskmelon", "", "genbank common name"],
            ["1000", "Cucumis melo subsp. melo", "", "scientific name"],
            ["3658", "Cucumis melo var. cantalupo", "", "scientific name"],
            ["3658", "cantaloupe", "", "genbank common name"],
            ["7", "Canis oddity", "", "scientific name"],
            ["7", "odd dog", "", "genbank common name"],
        ])

        @Test func namedSubspeciesAndVarietiesHangUnderTheirSpecies() throws {
            let output = try parseTaxdump(nodes: Self.nodes, names: Self.names)
            let result = output.result
            let dog = try #require(result.taxon("Canis lupus familiaris"))
            #expect(dog.rank == .subspecies && dog.parentKey == "ncbi|9612" && dog.fixedID == 9615)
            #expect(dog.names == [SourceName("dog", lang: "en", type: .common, isPreferred: true)])
            #expect(result.taxon("Canis lupus dingo")?.rank == .subspecies)
            let cantaloupe = try #require(result.taxon("Cucumis melo var. cantalupo"))
            #expect(cantaloupe.rank == .variety && cantaloupe.parentKey == "ncbi|3656")
            for gone in ["Canis lupus lupus", "Canis lupus familiaris strain X", "Cucumis melo subsp. melo", "Canis oddity"] {
                #expect(result.taxon(gone) == nil, "\(gone)")
            }
            #expect(output.keptBelowSpecies == [.subspecies: 2, .variety: 1])
            #expect(output.droppedBelowSpecies == 3)
            #expect(output.foldedNodes == 1)
            let assembled = try TaxonomyAssembler().assemble([result])
            #expect(assembled.issues.isEmpty)
        }

        @Test func ranksBelowSpeciesAreKnownByTheirSourceNames() {
            #expect(RankFolding.rankBelowSpecies("varietas") == .variety)
            #expect(RankFolding.rankBelowSpecies("subsp.") == .subspecies)
            #expect(RankFolding.rankBelowSpecies("strain") == nil)
            #expect(NCBITaxdumpImporter.level(of: "varietas") == Int8(Rank.variety.level))
            #expect(Rank.subspecies.isBelowSpecies && !Rank.species.isBelowSpecies && Rank.species.isSpeciesOrBelow)
            #expect(Rank.allCases.filter { !$0.isBelowSpecies }.map(\.rawValue) == ["domain", "kingdom", "phylum", "class", "order", "family", "genus", "species"])
        }
    }
}

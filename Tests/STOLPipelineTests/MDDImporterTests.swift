import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    @Suite struct MDD {
        // Columns in an unusual order, with extra ones, as MDD releases differ.
        static let csv = """
            id,sciName,mainCommonName,otherCommonNames,order,family,genus,specificEpithet,authoritySpeciesAuthor,authoritySpeciesYear,originalNameCombination,authoritySpeciesCitation,authoritySpeciesLink,continentDistribution,biogeographicRealm,iucnStatus,extinct,domestic
            1,Panthera_leo,Lion,African Lion|Lion| King of Beasts ,CARNIVORA,FELIDAE,Panthera,leo,Linnaeus,1758,Felis_leo,"Linnaeus, C. 1758. Systema Naturae, ""10th"" ed.",https://example.org/leo,Africa|Asia,Afrotropic|Indomalaya,VU (as Panthera leo),0,0
            2,Felis_catus,Domestic Cat,NA,Carnivora,Felidae,Felis,catus,Linnaeus,1758,Felis_Catus,NA,NA,NA,NA,NE,0,1
            3,Nogenus_species,Nothing,NA,Carnivora,Felidae,NA,species,X,2000,NA,NA,NA,NA,NA,LC,0,0
            4,Canis_lupus,Wolf,NA,Carnivora,Felidae,Lupus,lupus,Linnaeus,1758,Canis_lupus,NA,NA,NA,NA,LC,0,0
            5,Hydrodamalis_gigas,Steller's Sea Cow,NA,Sirenia,Dugongidae,Hydrodamalis,gigas,Zimmermann,1780,Manati_gigas,"Zimmermann, E. A. W. 1780.
            Geographische Geschichte",NA,NA,Marine,EX,1,0
            6,Felis_silvestris,Wildcat,NA,Primates,Felidae,Felis,silvestris,Schreber,1777,NA,NA,NA,NA,NA,LC,0,0

            """

        @Test func mapsSpeciesAndLineage() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let result = try MDDImporter().parse(file: dir.write("MDD_test.csv", Self.csv))

            let keys = result.taxa.prefix(4).map(\.key)
            #expect(keys == ["|domain|Eukaryota", "|kingdom|Animalia", "Animalia|phylum|Chordata", "Animalia|class|Mammalia"])
            #expect(result.taxa[1].parentKey == "|domain|Eukaryota")
            #expect(result.taxa[3].parentKey == "Animalia|phylum|Chordata")
            let order = try #require(result.taxon("Carnivora"))
            #expect(order.key == "Animalia|order|Carnivora" && order.rank == .order && order.parentKey == "Animalia|class|Mammalia")
            #expect(result.taxon("Felidae")?.parentKey == "Animalia|order|Carnivora")
            #expect(result.taxa.filter { $0.rank == .family && $0.scientificName == "Felidae" }.count == 1)

            let leo = try #require(result.taxon("Panthera leo"))
            #expect(leo.key == "Animalia|species|Panthera leo")
            #expect(leo.parentKey == "Animalia|genus|Panthera")
            #expect(leo.rank == .species && leo.author == "Linnaeus" && leo.year == 1758 && leo.conservation == .VU)
            #expect(leo.origin == SourceLocation(file: "MDD_test.csv", line: 2))
            #expect(leo.names == [
                SourceName("Lion", lang: "en", type: .common, isPreferred: true),
                SourceName("African Lion", lang: "en", type: .common),
                SourceName("King of Beasts", lang: "en", type: .common),
                SourceName("Felis leo", lang: "la", type: .synonym),
            ])
            #expect(leo.references == [SourceReference("Linnaeus, C. 1758. Systema Naturae, \"10th\" ed.", url: "https://example.org/leo")])
            #expect(leo.traits == [SourceTrait("realm", "Afrotropic, Indomalaya"), SourceTrait("continent", "Africa, Asia")])

            let cat = try #require(result.taxon("Felis catus"))
            #expect(cat.traits == [SourceTrait("domestic", "yes")])
            #expect(cat.names == [SourceName("Domestic Cat", lang: "en", type: .common, isPreferred: true)])  // Felis Catus: case only
            #expect(cat.conservation == .NE && cat.references.isEmpty)

            let cow = try #require(result.taxon("Hydrodamalis gigas"))
            #expect(cow.traits == [SourceTrait("realm", "Marine"), SourceTrait("extinct", "yes")])
            #expect(cow.names.last == SourceName("Manati gigas", lang: "la", type: .synonym))
            #expect(cow.references.first?.citation == "Zimmermann, E. A. W. 1780.\nGeographische Geschichte")
            #expect(result.taxon("Primates") == nil)  // only declared by a skipped row
            #expect(result.taxon("Panthera")?.rank == .genus)

            #expect(result.credits == [MDDImporter.defaultCredit])
            #expect(result.sourceFiles == ["MDD_test.csv"])
        }

        @Test func badRowsAreReportedWithLines() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let result = try MDDImporter().parse(file: dir.write("MDD_test.csv", Self.csv))
            #expect(result.skipped.map { $0.location?.line } == [4, 5, 8])
            #expect(result.skipped[0].message.contains("genus"))
            #expect(result.skipped[1].message.contains("does not start with its genus"))
            #expect(result.skipped[2].message.contains("family Felidae is under order Primates here but under order Carnivora at line 2"))
            #expect(result.taxon("Canis lupus") == nil && result.taxon("Felis silvestris") == nil)
            #expect(result.taxa.filter { $0.rank == .species }.count == 3)
        }

        @Test func gzipFileGivesTheSameResult() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let plain = try MDDImporter().parse(file: dir.write("mdd.csv", Self.csv))
            let gz = try MDDImporter().parse(file: dir.gzip("mdd.csv"))
            #expect(gz.taxa.map(\.key) == plain.taxa.map(\.key))
            #expect(gz.taxa.map(\.names) == plain.taxa.map(\.names))
            #expect(gz.skipped.count == plain.skipped.count)
        }

        @Test func missingRequiredColumnIsNamed() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let file = try dir.write("mdd.csv", "id,sciName,order,genus\n1,A_b,X,A\n")
            #expect(throws: DelimitedError.missingColumn("family", available: ["id", "sciName", "order", "genus"])) {
                try MDDImporter().parse(file: file)
            }
        }
    }
}

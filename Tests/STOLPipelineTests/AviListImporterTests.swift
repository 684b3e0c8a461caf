import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    @Suite struct AviList {
        static let csv = #"""
            Sequence,Taxon_rank,Order,Family,Family_English_name,Scientific_name,Authority,Bibliographic_details,English_name_AviList,English_name_Clements_v2024,English_name_BirdLife_v9,Decision_summary,Range,Extinct_or_possibly_extinct,IUCN_Red_List_Category,Original_description_URL,Protonym
            1,order,Passeriformes,,,Passeriformes,,,,,,,,,,,
            2,family,Passeriformes,Passeridae,Old World Sparrows,Passeridae,,,,,,,,,,,
            3,genus,Passeriformes,Passeridae,Old World Sparrows,Passer,"Brisson, MJ, 1760",Ornithologie 3 p.71,,,,,,,,https://example.org/passer,Passer
            4,species,Passeriformes,Passeridae,Old World Sparrows,Passer domesticus,"(Linnaeus, C, 1758)",Systema Naturae p.183,House Sparrow,House Sparrow,House sparrow,"Split
            from ""X""",Eurasia and North Africa,,LC,https://example.org/pd,Fringilla domestica
            5,subspecies,Passeriformes,Passeridae,Old World Sparrows,Passer domesticus domesticus,"(Linnaeus, C, 1758)",,,,,,,,,,Fringilla domestica
            6,subspecies,Passeriformes,Passeridae,Old World Sparrows,Passer domesticus indicus,"Jardine, W & Selby, PJ, 1831",,,,,,,,,,Passer indicus
            7,species,Passeriformes,Passeridae,Old World Sparrows,Passer montanus,"(Linnaeus, C, 1758)",,Eurasian Tree Sparrow,Eurasian Tree Sparrow,Tree Sparrow,,,,LC (as Passer montanus),,"Fringilla montana Linnaeus, 1758"
            8,species,Struthioniformes,Struthionidae,Ostriches,Struthio camelus,"Linnaeus, C, 1758",,Common Ostrich,,,,,,CR (PE),,Struthio Camelus
            9,species,Passeriformes,Fringillidae,Finches,Passer hispaniolensis,"(Temminck, CJ, 1820)",,Spanish Sparrow,,,,,,LC,,Fringilla hispaniolensis
            10,species,Passeriformes,Passeridae,Old World Sparrows,Passer,,,,,,,,,,,
            11,kingdom,,,,Animalia,,,,,,,,,,,
            12,species,Columbiformes,Columbidae,Pigeons,Raphus cucullatus,"(Linnaeus, C, 1758)",,Dodo,,,,,(extinct),EX,,Struthio cucullatus
            13,species,Gruiformes,,,Xus yus,,,,,,,,,,,
            14,species,Columbiformes,Columbidae,Pigeons,Pezophaps solitaria,"(Gmelin, JF, 1789)",,Rodrigues Solitaire,,,,,Possibly Extinct,EX,,Didus solitarius
            """#

        @Test func mapsRowsAndSkipsSubspecies() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let output = try AviListImporter().parse(file: dir.write("avilist.csv", Self.csv))
            let result = output.result
            #expect(output.subspeciesSkipped == 2)
            #expect(result.taxon("Passer domesticus domesticus") == nil)
            #expect(result.taxa.prefix(4).map(\.scientificName) == ["Eukaryota", "Animalia", "Chordata", "Aves"])
            #expect(result.taxon("Aves")?.key == "Animalia|class|Aves")

            let family = try #require(result.taxon("Passeridae"))
            #expect(family.parentKey == "Animalia|order|Passeriformes" && family.rank == .family)
            #expect(family.names == [SourceName("Old World Sparrows", lang: "en", type: .common, isPreferred: true)])
            let genus = try #require(result.taxon("Passer"))
            #expect(genus.parentKey == "Animalia|family|Passeridae" && genus.author == "Brisson, MJ" && genus.year == 1760)
            #expect(genus.references == [SourceReference("Ornithologie 3 p.71", url: "https://example.org/passer")])

            let sparrow = try #require(result.taxon("Passer domesticus"))
            #expect(sparrow.key == "Animalia|species|Passer domesticus" && sparrow.parentKey == "Animalia|genus|Passer")
            #expect(sparrow.author == "Linnaeus, C" && sparrow.year == 1758 && sparrow.conservation == .LC)
            #expect(sparrow.names == [
                SourceName("House Sparrow", lang: "en", type: .common, isPreferred: true),
                SourceName("Fringilla domestica", lang: "la", type: .synonym),
            ])
            #expect(sparrow.traits == [SourceTrait("range", "Eurasia and North Africa")])
            #expect(sparrow.references == [SourceReference("Systema Naturae p.183", url: "https://example.org/pd")])
            #expect(sparrow.origin?.line == 5)

            let tree = try #require(result.taxon("Passer montanus"))
            #expect(tree.origin?.line == 9)  // after the quoted line break
            #expect(tree.names.map(\.name) == ["Eurasian Tree Sparrow", "Tree Sparrow", "Fringilla montana"])
            #expect(tree.conservation == .LC)

            // Order and family come from the species row when there are no rows for them.
            let ostrich = try #require(result.taxon("Struthio camelus"))
            #expect(ostrich.conservation == .CR && ostrich.names.count == 1)  // the protonym differs in case only
            #expect(result.taxon("Struthio")?.parentKey == "Animalia|family|Struthionidae")
            #expect(result.taxon("Struthionidae")?.parentKey == "Animalia|order|Struthioniformes")

            #expect(result.taxon("Raphus cucullatus")?.traits == [SourceTrait("extinct", "yes")])
            #expect(result.taxon("Pezophaps solitaria")?.traits == [SourceTrait("extinct", "possibly extinct")])
            #expect(result.credits == [AviListImporter.defaultCredit])
        }

        @Test func badRowsAreReportedWithLines() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let result = try AviListImporter().parse(file: dir.write("avilist.csv", Self.csv)).result
            #expect(result.skipped.map { $0.location?.line } == [11, 12, 13, 15])
            #expect(result.skipped[0].message.contains("genus Passer is under family Fringillidae here but under family Passeridae at line 4"))
            #expect(result.skipped[1].message.contains("binomial"))
            #expect(result.skipped[2].message.contains("unknown Taxon_rank 'kingdom'"))
            #expect(result.skipped[3].message.contains("no Family"))
            #expect(result.taxon("Passer hispaniolensis") == nil && result.taxon("Fringillidae") == nil)

            // The assembler passes them on with their locations, and finds nothing else wrong.
            let assembled = try TaxonomyAssembler().assemble([result])
            #expect(assembled.issues.map { $0.location?.line } == [11, 12, 13, 15])
            #expect(assembled.taxa.count == result.taxa.count)
        }

        @Test func authorityYearAndProtonym() {
            #expect(AviListImporter.authority("(Linnaeus, C, 1758)") == ("Linnaeus, C", 1758))
            #expect(AviListImporter.authority("Sclater, PL; von Hochstetter, F, 1861") == ("Sclater, PL; von Hochstetter, F", 1861))
            #expect(AviListImporter.authority("") == (nil, nil))
            #expect(AviListImporter.authority("Anonymous") == ("Anonymous", nil))
            #expect(AviListImporter.withoutAuthor("Fringilla montana Linnaeus, 1758") == "Fringilla montana")
            #expect(AviListImporter.withoutAuthor("Tinamus (Nothura) cinnamomeus (Lesson, 1842)") == "Tinamus (Nothura) cinnamomeus")
            #expect(AviListImporter.withoutAuthor("Anas obscura var. fulvigula") == "Anas obscura var. fulvigula")
            #expect(AviListImporter.withoutAuthor("Casuarius N. Hollandiae") == "Casuarius N. Hollandiae")
            #expect(AviListImporter.extinction("Extinct in the Wild") == "extinct in the wild")
            #expect(AviListImporter.extinction("") == nil)
        }

        @Test func mergesWithMammalsOnOneLineage() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let birds = try AviListImporter().parse(file: dir.write("avilist.csv", Self.csv)).result
            let mammals = try MDDImporter().parse(file: dir.write("mdd.csv", MDD.csv))
            let assembled = try TaxonomyAssembler().assemble([mammals, birds])
            for name in ["Eukaryota", "Animalia", "Chordata"] {
                #expect(assembled.taxa.filter { $0.scientificName == name }.count == 1)
            }
            let chordata = try #require(assembled.taxa.firstIndex { $0.scientificName == "Chordata" })
            let classes = assembled.taxa.indices.filter { Int(assembled.parentIndex[$0]) == chordata }.map { assembled.taxa[$0].scientificName }
            #expect(Set(classes) == ["Mammalia", "Aves"])
        }
    }
}

import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

/// Imports the real Darwin Core Archive and ColDP package from `../shared/data` (run with
/// `--filter realData`).
@Suite struct RealChecklistImportTests {
    /// Names from the root down to `name`.
    static func lineage(_ name: String, in assembled: TaxonomyAssembler.Assembled) -> [String] {
        guard var i = assembled.taxa.firstIndex(where: { $0.scientificName == name }) else { return [] }
        var out = [name]
        while assembled.parentIndex[i] >= 0 {
            i = Int(assembled.parentIndex[i])
            out.insert(assembled.taxa[i].scientificName, at: 0)
        }
        return out
    }

    @Test func realDataDarwinCoreArchiveSpiders() throws {
        let url = RealDataImportTests.sharedData("dwca/checklist_980.zip")
        try #require(FileManager.default.fileExists(atPath: url.path), "missing \(url.path)")
        let output = try DwCAImporter().parse(url)
        let result = output.result
        // 356 rows: 33 name nothing at all (no scientificName, genus or epithet); the other 323
        // are species named by genus + specificEpithet, under 183 genera created for them.
        #expect(result.skipped.count == 33)
        #expect(result.skipped.allSatisfy { $0.message == "no scientific name, genus or epithet; row skipped" && $0.location?.file == "checklist_980.zip:taxa.csv" })
        #expect(result.skipped.first?.location?.line == 2)
        #expect(output.counts.taxa == 323)
        #expect(output.counts.created == 183)
        #expect(output.counts.skippedTables == ["Document": 0, "Reference": 1, "Occurrence": 740])
        #expect(result.credits.first?.contains("spider") == true, "\(result.credits)")

        let assembled = try TaxonomyAssembler().assemble([result])
        #expect(assembled.issues == result.skipped, "\(assembled.issues.prefix(3))")  // nothing more
        #expect(assembled.taxa.count == 506)
        #expect(assembled.taxa.filter { $0.rank == .species }.count == 323)
        #expect(Self.lineage("Agelena labyrinthica", in: assembled) == ["Agelena", "Agelena labyrinthica"])
        let pardosa = assembled.taxa.filter { $0.scientificName.hasPrefix("Pardosa ") }
        #expect(pardosa.count == 12)
        let agelena = try #require(result.taxon("Agelena labyrinthica"))
        #expect(agelena.references.first?.citation.hasPrefix("Čandek K, Gregorič M, Kostanjšek R") == true)
    }

    @Test func realDataColDPCitesAppendixI() throws {
        let url = RealDataImportTests.sharedData("coldp/cites-appendix-i")
        try #require(FileManager.default.fileExists(atPath: url.path), "missing \(url.path)")
        let output = try ColDPImporter().parse(url)
        let result = output.result
        #expect(result.skipped.isEmpty, "\(result.skipped.prefix(3))")
        // 1,819 accepted usages: 41 subspecies and varieties dropped, 1,778 kept.
        #expect(output.counts.taxa == 1_778)
        #expect(output.counts.belowSpecies == 41)
        #expect(output.counts.folded == 0)
        // 1,818 synonyms: 1,777 of species and genera, 41 of the dropped subspecies.
        #expect(output.counts.synonyms == 1_777)
        #expect(output.counts.synonymsOfDropped == 41)
        // 5,015 common names: 178 on dropped subspecies.
        #expect(output.counts.commonNames == 4_837)
        #expect(output.counts.skippedTables == ["distribution.tsv": 7_113, "taxon-property.tsv": 1_255])
        #expect(result.credits == ["CITES Checklist – Appendix I"])

        let assembled = try TaxonomyAssembler().assemble([result])
        #expect(assembled.issues.isEmpty, "\(assembled.issues.prefix(3))")
        #expect(assembled.taxa.count == 1_778)
        #expect(Self.lineage("Panthera tigris", in: assembled) == ["Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera", "Panthera tigris"])
        #expect(Self.lineage("Indri indri", in: assembled) == ["Animalia", "Chordata", "Mammalia", "Primates", "Indriidae", "Indri", "Indri indri"])

        let tiger = try #require(result.taxon("Panthera tigris"))
        #expect(tiger.names.filter { $0.type == .synonym }.map(\.name).sorted() == [
            "Panthera tigris altaica (Temminck, 1844)", "Panthera tigris sondaica Temminck, 1844", "Panthera tigris tigris Linnaeus, 1758",
        ])
        let panda = try #require(result.taxon("Ailuropoda melanoleuca"))
        #expect(panda.names.contains(SourceName("Ursus melanoleuca David, 1869", lang: "la", type: .synonym)))
        let common = Set(panda.names.filter { $0.type == .common }.map { "\($0.lang):\($0.name)" })
        #expect(common == ["en:Giant Panda", "es:Panda gigante", "fr:Panda géant", "fr:Panda"])
        let languages = Set(result.taxa.flatMap { $0.names.filter { $0.type == .common }.map(\.lang) })
        #expect(languages == ["en", "es", "fr"])
        #expect(panda.author == "(David, 1869)")
        #expect(panda.year == 1869)
    }
}

import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

/// Taxa that share a scientific name carry a disambiguation in every browse answer; others do not.
@Suite struct HomonymTests {
    /// (key, parent key, rank, name): Morus the mulberry and Morus the gannet (as in NCBI), and
    /// two Parus in one order, under different families.
    static let taxa: [(String, String?, Rank, String)] = [
        ("euk", nil, .domain, "Eukaryota"),
        ("pla", "euk", .kingdom, "Plantae"), ("str", "pla", .phylum, "Streptophyta"), ("mag", "str", .class, "Magnoliopsida"),
        ("ros", "mag", .order, "Rosales"), ("mor", "ros", .family, "Moraceae"), ("morus1", "mor", .genus, "Morus"),
        ("alba", "morus1", .species, "Morus alba"),
        ("ani", "euk", .kingdom, "Animalia"), ("cho", "ani", .phylum, "Chordata"), ("ave", "cho", .class, "Aves"),
        ("sul", "ave", .order, "Suliformes"), ("suli", "sul", .family, "Sulidae"), ("morus2", "suli", .genus, "Morus"),
        ("bass", "morus2", .species, "Morus bassanus"),
        ("pas", "ave", .order, "Passeriformes"), ("par", "pas", .family, "Paridae"), ("parus1", "par", .genus, "Parus"),
        ("major", "parus1", .species, "Parus major"), ("mus", "pas", .family, "Muscicapidae"), ("parus2", "mus", .genus, "Parus"),
    ]

    static func store(_ rows: [(String, String?, Rank, String)]) throws -> (TaxonomyStore, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        var source = ImportResult()
        source.taxa = rows.map { SourceTaxon(key: $0.0, parentKey: $0.1, rank: $0.2, scientificName: $0.3) }
        let assembled = try TaxonomyAssembler().assemble([source])
        #expect(assembled.issues.isEmpty, "\(assembled.issues)")
        let url = dir.url.appendingPathComponent("homonyms.sqlite")
        let metadata = DatabaseBuilder.Metadata(name: "homonyms", version: "1", license: "CC0", attribution: "", buildDate: "2026-01-01", sourceFiles: [])
        _ = try DatabaseBuilder(topN: 0).build(assembled, metadata: metadata, to: url)
        return (TaxonomyStore(database: try TaxonomyDatabase(url: url, source: .reference)), dir)
    }

    @Test func sharedNamesAreToldApartAndOthersAreLeftAlone() async throws {
        let (store, dir) = try Self.store(Self.taxa)
        defer { dir.remove() }
        let roots = try await store.roots()
        let eukaryota = try #require(roots.first)
        #expect(eukaryota.disambiguation == nil)

        // Find both Morus genera through browsing.
        func descend(_ path: [String]) async throws -> Taxon {
            var current = eukaryota
            for name in path {
                let children = try await store.children(TaxonomyStore.ChildQuery(parentID: current.id, limit: 50)).children
                current = try #require(children.first { $0.scientificName == name })
            }
            return current
        }
        let mulberry = try await descend(["Plantae", "Streptophyta", "Magnoliopsida", "Rosales", "Moraceae", "Morus"])
        let gannet = try await descend(["Animalia", "Chordata", "Aves", "Suliformes", "Sulidae", "Morus"])
        #expect(mulberry.disambiguation?.display == "Morus (genus in Magnoliopsida)")
        #expect(gannet.disambiguation?.display == "Morus (genus in Aves)")
        #expect(gannet.disambiguation?.ancestorRank == .class)
        #expect(gannet.disambiguation?.ancestorName == "Aves")
        let aves = try await descend(["Animalia", "Chordata", "Aves"])
        #expect(gannet.disambiguation?.ancestorId == aves.id)
        #expect(aves.disambiguation == nil)

        // Two Parus in one order: the families differ.
        let tit = try await descend(["Animalia", "Chordata", "Aves", "Passeriformes", "Paridae", "Parus"])
        let other = try await descend(["Animalia", "Chordata", "Aves", "Passeriformes", "Muscicapidae", "Parus"])
        #expect(tit.disambiguation?.display == "Parus (genus in Paridae)")
        #expect(other.disambiguation?.display == "Parus (genus in Muscicapidae)")

        // taxon/get, lineage and detail carry it too.
        #expect(try await store.taxon(gannet.id).disambiguation == gannet.disambiguation)
        let species = try await descend(["Animalia", "Chordata", "Aves", "Suliformes", "Sulidae", "Morus", "Morus bassanus"])
        #expect(species.disambiguation == nil)
        let lineage = try await store.ancestors(species.id)
        #expect(lineage.map { $0.disambiguation?.display } == [nil, nil, nil, nil, nil, nil, "Morus (genus in Aves)"])
        let detail = try await store.detail(species.id)
        #expect(detail.lineage.last?.disambiguation?.display == "Morus (genus in Aves)")
        let detailOfGenus = try await store.detail(mulberry.id)
        #expect(detailOfGenus.taxon.disambiguation?.display == "Morus (genus in Magnoliopsida)")
        #expect(try await store.disambiguations([gannet.id, species.id, 999]) == [gannet.id: gannet.disambiguation!])

        // The JSON carries it as structured fields and the display form.
        var bytes: [UInt8] = []
        gannet.writeJSON(into: &bytes)
        let json = String(decoding: bytes, as: UTF8.self)
        #expect(json.contains("\"disambiguation\":{\"ancestorId\":\(aves.id),\"ancestorName\":\"Aves\",\"ancestorRank\":\"class\",\"display\":\"Morus (genus in Aves)\"}"), "\(json)")
    }

    @Test func namesakeBelowItsNamesakeIsToldApartByRank() async throws {
        let (store, dir) = try Self.store([("a", nil, .kingdom, "Animalia"), ("o", "a", .order, "Fooformes"), ("f", "o", .family, "Foo"), ("g", "f", .genus, "Foo")])
        defer { dir.remove() }
        let animalia = try #require(try await store.roots().first)
        let order = try #require(try await store.children(TaxonomyStore.ChildQuery(parentID: animalia.id, limit: 5)).children.first)
        let family = try #require(try await store.children(TaxonomyStore.ChildQuery(parentID: order.id, limit: 5)).children.first)
        let genus = try #require(try await store.children(TaxonomyStore.ChildQuery(parentID: family.id, limit: 5)).children.first)
        // The family's whole lineage is the genus's too: only its rank tells it apart.
        #expect(family.disambiguation == Disambiguation(display: "Foo (family)"))
        #expect(genus.disambiguation == Disambiguation(ancestorId: family.id, ancestorName: "Foo", ancestorRank: .family, display: "Foo (genus in Foo)"))
        #expect(order.disambiguation == nil)
    }
}

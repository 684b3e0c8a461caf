import Foundation
import STOLClient
import STOLProtocol
import STOLSupport
import STOLTestSupport
import Testing

/// The specification's §10 protocols over the real binary, each through its engine-backed
/// implementation, as an app written against the specification would call them.
@Suite(.serialized) struct SpecificationServicesTests {
    static let signed = Result { try Fixtures.signedDatabase() }

    /// A client of the binary on the embedded database that also trusts the fixture's key.
    func client() throws -> STOLClient {
        STOLClient(transport: RecordingTransport(["--trusted-key", try Self.signed.get().publicKey]))
    }

    @Test func taxonomyStore() async throws {
        let client = try client()
        let store: any TaxonomyStore = EngineTaxonomyStore(client: client, lang: "en")
        let lion = try await ClientCallTests.species(client, "Panthera leo")
        let taxon = try #require(try await store.taxon(id: lion))
        #expect(taxon.scientificName == "Panthera leo" && taxon.preferredCommonName == "Lion")
        #expect(try await store.taxon(id: 9_000_000_001) == nil)
        let lineage = try await store.ancestors(of: lion)
        #expect(lineage.last?.scientificName == "Panthera" && lineage.last?.id == taxon.parentId)
        let genus = try #require(taxon.parentId)
        let children = try await store.children(of: genus)
        #expect(children.contains { $0.id == lion } && children.allSatisfy { $0.parentId == genus })
        let names = try await store.names(for: lion, lang: nil)
        #expect(Set(names.map(\.lang)).isSuperset(of: ["en", "de"]))
        let german = try await store.names(for: lion, lang: "de").filter { $0.type == .common || $0.type == .vernacular }
        #expect(!german.isEmpty && german.allSatisfy { $0.lang.hasPrefix("de") })
        #expect(!(try await store.traits(for: lion)).isEmpty)
        _ = try await store.references(for: lion)
        await client.shutdown()
    }

    @Test func searchService() async throws {
        let client = try client()
        let search: any SearchService = EngineSearchService(client: client)
        let found = try await search.search(query: "lion", rank: .species, maxResults: 5)
        #expect(found.first?.scientificName == "Panthera leo" && found.allSatisfy { $0.rank == .species } && found.count <= 5)
        let suggestions = try await search.autocomplete(prefix: "lio", maxResults: 5)
        #expect(suggestions.contains("Lion") && suggestions.count <= 5)
        await client.shutdown()
    }

    @Test func compareService() async throws {
        let client = try client()
        let compare: any CompareService = EngineCompareService(client: client)
        let lion = try await ClientCallTests.species(client, "Panthera leo")
        let tiger = try await ClientCallTests.species(client, "Panthera tigris")
        let comparison = try await compare.compare(taxonA: lion, taxonB: tiger)
        #expect(comparison.lca.scientificName == "Panthera" && comparison.taxonomicDistance == 2)
        #expect(comparison.sharedCladeDescription.contains("Panthera"))
        let stored = try await compare.topNRelatives(of: lion, n: 5, source: .precomputed)
        let walked = try await compare.topNRelatives(of: lion, n: 5, source: .computed(maxCandidates: 5000))
        #expect(!stored.isEmpty && stored.count <= 5 && stored.map(\.rankOrder) == Array(1...stored.count))
        #expect(walked.map(\.taxon.id).contains(tiger))
        let notASpecies = try await #require(throws: RPCError.self) { try await compare.topNRelatives(of: comparison.lca.id, n: 3, source: .precomputed) }
        #expect(notASpecies.kind == .notASpecies)
        await client.shutdown()
    }

    /// An import reports its stages in order through `progress`, switches the database, and the
    /// provider and the switch notification say so; deactivating with delete goes back.
    @Test func importServiceAndDatabaseProvider() async throws {
        let fixture = try Self.signed.get()
        let client = try client()
        let importer = EngineImportService(client: client)
        let provider: any DatabaseProvider = EngineDatabaseProvider(client: client)
        #expect(try await provider.activeConfig.source == .bundled)
        #expect(try await provider.isReferenceDBActive == false)
        let switches = client.notifications(DatabaseDidSwitchNotification.self)
        let progress = importer.progress
        let seen = Task {
            var stages: [ImportProgress] = []
            for await report in progress {
                stages.append(report)
                if report.fractionCompleted >= 1 { break }
            }
            return stages
        }
        try await importer.importReferenceDB(from: fixture.stol)
        let stages = await seen.value
        #expect(stages.map(\.fractionCompleted) == stages.map(\.fractionCompleted).sorted())
        let order = ImportProgress.Stage.allCases
        let reached = stages.map { order.firstIndex(of: $0.stage)! }
        #expect(reached == reached.sorted(), "stages out of order: \(stages.map(\.stage))")
        // Reports waiting to be written are coalesced (the newest wins), so quick steps may be
        // skipped; the last one is always there.
        #expect(stages.last?.stage == .finalizing && stages.last?.step == .done)
        var switched = switches.makeAsyncIterator()
        #expect(await switched.next()?.source == .reference)
        let config = try await provider.activeConfig
        #expect(config.source == .reference && config.taxaCount > 40 && config.sizeBytes > 0)
        #expect(try await provider.isReferenceDBActive)

        try await provider.deactivateReferenceDB(delete: true)
        #expect(await switched.next()?.source == .bundled)
        #expect(try await provider.isReferenceDBActive == false)
        let missing = try await #require(throws: RPCError.self) { try await provider.activateReferenceDB() }
        #expect(missing.kind == .referenceMissing)
        await client.shutdown()
    }

    /// The specification's import errors: a file signed with an untrusted key, a file that is no
    /// `.stol` at all.
    @Test func importErrorsAreTheSpecificationsCases() async throws {
        let client = STOLClient(transport: RecordingTransport())
        let importer: any ImportService = EngineImportService(client: client)
        await #expect(throws: ImportError.signatureInvalid) { try await importer.importReferenceDB(from: try Self.signed.get().stol) }
        let junk = EngineBinary.temporaryDirectory("stol-junk")
        try Data("not a stol file".utf8).write(to: junk)
        defer { try? FileManager.default.removeItem(at: junk) }
        let failure = try await #require(throws: ImportError.self) { try await importer.importReferenceDB(from: junk) }
        guard case .other(let error) = failure else { Issue.record("\(failure)"); return }
        #expect(error.kind == .notAStolFile || error.kind == .fileTooLarge || error.code == ErrorCode.reference)
        await importer.cancelImport()
        await client.shutdown()
    }

    @Test func favoritesService() async throws {
        let client = try client()
        let favorites: any FavoritesService = EngineFavoritesService(client: client)
        let lion = try await ClientCallTests.species(client, "Panthera leo")
        let tiger = try await ClientCallTests.species(client, "Panthera tigris")
        #expect(await favorites.isFavourite(taxonID: lion) == false)
        let before = Date()
        try await favorites.addFavourite(taxonID: lion)
        try await favorites.addFavourite(taxonID: lion)
        #expect(await favorites.isFavourite(taxonID: lion))
        #expect(try await favorites.toggleFavourite(taxonID: tiger))
        #expect(try await favorites.favouritesCount() == 2)
        let all = try await favorites.allFavourites()
        #expect(Set(all.map(\.taxonID)) == [lion, tiger])
        #expect(all.allSatisfy { $0.createdAt >= before.addingTimeInterval(-1) && $0.createdAt <= Date().addingTimeInterval(1) })
        #expect(all.first { $0.taxonID == lion }?.details.commonName == "Lion")
        #expect(try await favorites.storageBytes() > 0)
        try await favorites.removeFavourite(taxonID: tiger)
        #expect(try await favorites.favouritesCount() == 1)
        try await favorites.clearAllFavourites()
        #expect(try await favorites.allFavourites().isEmpty)
        await client.shutdown()
    }

    @Test func mediaCache() async throws {
        let client = try client()
        let media = EngineMediaCache(client: client)
        let cache: any MediaCache = media
        let cat = try await ClientCallTests.species(client, "Felis catus")
        let image = try #require(await cache.imageData(for: cat, size: .thumbnail))
        let bytes = try #require(image.bytes)
        #expect(image.taxonId == cat && bytes.count > 100 && ["image/jpeg", "image/png", "image/webp"].contains(image.mimeType))
        #expect(max(image.width, image.height) <= 160 + 1 && !image.license.isEmpty)
        let page = try #require(await cache.imageData(for: cat, size: .page))
        #expect(page.width * page.height > image.width * image.height)
        let packs = await cache.availableMediaPacks()
        #expect(packs.first?.bundled == true && packs.first?.deletable == false)
        #expect(await cache.optionalMediaStorageBytes() == 0)
        let refused = try await #require(throws: RPCError.self) { try await cache.deleteMediaPack(id: try #require(packs.first?.id)) }
        #expect(refused.kind == .mediaPackNotDeletable)
        let list = try await media.imageData(for: [cat, 9_000_000_001], size: .thumbnail)
        #expect(list.count == 2 && list[0]?.taxonId == cat && list[1] == nil)
        await client.shutdown()
    }
}

import Foundation
import Logging
import STOLClient
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

@testable import STOLEngine

/// The method handlers, driven in-process through their typed contracts on the embedded
/// database: the same decoding, encoding and errors as over stdio, without a process.
@Suite struct MethodHandlerTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stol-handlers-\(UUID().uuidString)")

    /// A client of the engine's handlers behind the server, in process, and the engine.
    func client() throws -> (STOLClient, Engine) {
        let engine = try Engine(configuration: .init(dataDirectory: directory), logger: InProcessClient.quiet)
        return (InProcessClient.serving { engine.methods() }, engine)
    }

    /// The id of the species named `name`, found through `search/query`.
    func speciesID(_ client: STOLClient, _ name: String) async throws -> Int64 {
        try #require(try await client.send(SearchQueryRequest(query: name, rank: .species)).results.first?.id)
    }

    @Test func taxonDetailOfTheLionHasItsLineageAndNames() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (client, _) = try client()
        let lion = try await speciesID(client, "Panthera leo")
        let taxon = try await client.send(TaxonGetRequest(id: lion, lang: "en"))
        #expect(taxon.scientificName == "Panthera leo")
        #expect(taxon.preferredCommonName == "Lion")
        let lineage = try await client.send(TaxonAncestorsRequest(id: lion))
        #expect(lineage.ancestors.map(\.scientificName).suffix(2) == ["Felidae", "Panthera"])
    }

    @Test func invalidParamsComeBackAsTheServerWouldAnswerThem() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (client, _) = try client()
        await #expect(throws: RPCError.invalidParams(field: "id", "is out of range: must be an integer from 1 to 9007199254740991")) {
            try await client.send(TaxonGetRequest(id: -4))
        }
        await #expect(throws: RPCError.invalidParams(field: "id", "is required")) {
            try await client.send(method: "taxon/get", params: .object([:]))
        }
        let unknown = try await #require(throws: RPCError.self) {
            try await client.send(TaxonGetRequest(id: 9_999_999))
        }
        #expect(unknown.code == ErrorCode.notFound)
    }

    /// A param of the wrong JSON type is named in plain words, whatever the element type.
    @Test func aWrongTypeIsNamedInPlainWords() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (client, _) = try client()
        await #expect(throws: RPCError.invalidParams(field: "pairs", "must be an array")) {
            try await client.send(method: "compare/lca", params: .object(["pairs": "1,2"]))
        }
        await #expect(throws: RPCError.invalidParams(field: "pairs.0", "must be an array")) {
            try await client.send(method: "compare/lca", params: .object(["pairs": [1]]))
        }
        await #expect(throws: RPCError.invalidParams(field: "taxonIds", "must be an array")) {
            try await client.send(method: "favorites/remove", params: .object(["taxonIds": .object(["a": 1])]))
        }
    }

    @Test func aFavouriteAddedIsSeenAndAnnounced() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (client, engine) = try client()
        let lion = try await speciesID(client, "Panthera leo")
        let changes = client.notifications(FavoritesDidChangeNotification.self)
        let added = try await client.send(FavoritesAddRequest(taxonId: lion))
        #expect(added.added && added.available)
        let contains = try await client.send(FavoritesContainsRequest(taxonIds: [lion, lion + 1]))
        #expect(contains == .list([lion: true, lion + 1: false]))
        #expect(try await client.send(FavoritesCountRequest()).count == 1)
        var announced = changes.makeAsyncIterator()
        #expect(await announced.next()?.count == 1)
        _ = try await client.send(FavoritesRemoveRequest(taxonId: lion))
        #expect(await announced.next()?.count == 0)
        await client.shutdown()
        await engine.close()
    }
}

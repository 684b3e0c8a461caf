import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import Testing

/// `storage/report` over the real binary.
@Suite struct StorageTests {
    @Test func reportCoversEveryKindOfStorage() async throws {
        let engine = try EngineProcess()
        let empty = try #require(await engine.result(StorageReportRequest()))
        #expect((empty["bundled"]?["bytes"]?.int64Value ?? 0) > 0)
        #expect(empty["bundled"]?["deletable"] == false)
        #expect(empty["reference"]?["bytes"] == 0)
        #expect(empty["reference"]?["deletable"] == true)
        #expect(empty["reference"]?["available"] == false)
        #expect(empty["reference"]?["active"] == false)
        #expect(empty["favorites"]?["bytes"] == 0)
        // Only the bundled photographs, which ship with the engine and cannot be deleted.
        let packs = try #require(empty["mediaPacks"]?.arrayValue)
        #expect(packs.map { $0["id"] } == ["bundled"])
        #expect(packs.first?["deletable"] == false && packs.first?["bundled"] == true)
        #expect((packs.first?["bytes"]?.int64Value ?? 0) > 1_000_000)
        #expect(empty["diagnostics"]?["bytes"] == 0)
        #expect(empty["diagnostics"]?["enabled"] == false)
        #expect((empty["volume"]?["freeBytes"]?.int64Value ?? 0) > 0)
        #expect((empty["volume"]?["totalBytes"]?.int64Value ?? 0) >= (empty["volume"]?["freeBytes"]?.int64Value ?? 0))
        #expect(empty["favoritesRecovery"] == nil)
        // The report itself creates nothing.
        #expect(!FileManager.default.fileExists(atPath: engine.dataDirectory.appendingPathComponent("Favorites").path))

        let id = try #require(await engine.result(TaxonRootsRequest())?["roots"]?.arrayValue?.first?["id"])
        _ = await engine.result(FavoritesAddRequest(taxonId: try #require(id.int64Value)))
        _ = await engine.result(DiagnosticsSetEnabledRequest(enabled: true))
        _ = await engine.result(PingRequest())
        let after = try #require(await engine.result(StorageReportRequest()))
        #expect((after["favorites"]?["bytes"]?.int64Value ?? 0) > 0)
        #expect((after["diagnostics"]?["bytes"]?.int64Value ?? 0) > 0)
        #expect(after["diagnostics"]?["enabled"] == true)
    }

    @Test func aDamagedFavouritesFileShowsItsRecovery() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stol-storage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("Favorites"), withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: data.appendingPathComponent("Favorites/favorites.sqlite"))
        let engine = try EngineProcess(dataDirectory: data)
        _ = await engine.result(FavoritesCountRequest())
        let report = try #require(await engine.result(StorageReportRequest()))
        #expect(report["favoritesRecovery"]?["movedAsideTo"]?.stringValue?.hasPrefix("favorites.sqlite.corrupt-") == true, "\(report)")
        #expect((report["favorites"]?["bytes"]?.int64Value ?? 0) >= 8192)
    }

    @Test func anImportedReferenceIsCountedAndShownActive() async throws {
        let kit = try ReferenceTests.kit.get()
        let engine = try EngineProcess(["--trusted-key", kit.publicKey])
        #expect(await engine.call(DatabaseImportRequest(path: kit.stol.path), timeout: .seconds(60))?["result"]?["source"] == "reference")
        let report = try #require(await engine.result(StorageReportRequest()))
        let size = try FileManager.default.attributesOfItem(atPath: engine.dataDirectory.appendingPathComponent("Databases/reference.sqlite").path)[.size] as? NSNumber
        #expect(report["reference"]?["bytes"]?.int64Value == size?.int64Value)
        #expect(report["reference"]?["available"] == true)
        #expect(report["reference"]?["active"] == true)
        let about = try #require(await engine.result(AboutRequest()))
        #expect(about["dataset"]?["source"] == "reference")
        #expect(about["dataset"]?["name"] == "Fixture")
        _ = await engine.result(DeactivateReferenceRequest(delete: true))
        let after = try #require(await engine.result(StorageReportRequest()))
        #expect(after["reference"]?["bytes"] == 0 && after["reference"]?["active"] == false)
    }
}

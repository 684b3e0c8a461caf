import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import Testing

/// Damage is always reported, never silent or internal: a damaged `settings.json`, corrupt pages
/// in an installed reference database, and one damaged media pack among healthy ones.
@Suite(.serialized) struct DamageReportTests {
    static func dataDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("stol-damage-\(UUID().uuidString)")
    }

    /// Overwrites with `0x42` bytes every leaf page SQLite's dbstat lists for `object` in `file`
    /// (for every object but the schema when `object` is nil).
    static func damagePages(of object: String?, in file: URL) throws {
        let which = object.map { "name = '\($0)'" } ?? "name <> 'sqlite_schema'"
        let pages = try SQLiteCLI.run(file, "SELECT pageno FROM dbstat WHERE \(which) AND pagetype = 'leaf'").compactMap(Int.init)
        let pageSize = try #require(Int(try SQLiteCLI.run(file, "PRAGMA page_size").first ?? ""))
        #expect(!pages.isEmpty, "no pages of \(object)")
        let handle = try FileHandle(forWritingTo: file)
        for page in pages {
            try handle.seek(toOffset: UInt64((page - 1) * pageSize))
            try handle.write(contentsOf: Data(repeating: 0x42, count: pageSize))
        }
        try handle.close()
    }

    @Test func aDamagedSettingsFileIsLoggedMovedAsideAndReported() async throws {
        let data = Self.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data(#"{"referenceActive": tru"#.utf8).write(to: data.appendingPathComponent("settings.json"))
        let engine = try EngineProcess(dataDirectory: data)
        let recovery = try #require(await engine.result(DatabaseInfoRequest())?["settingsRecovery"])
        let moved = try #require(recovery["movedAsideTo"]?.stringValue)
        #expect(moved.hasPrefix("settings.json.corrupt-") && recovery["reason"] == "it is not a JSON object")
        #expect(try Data(contentsOf: data.appendingPathComponent(moved)) == Data(#"{"referenceActive": tru"#.utf8))
        #expect(await engine.result(StorageReportRequest())?["settingsRecovery"]?["movedAsideTo"] == .string(moved))
        #expect(engine.stderrText.contains("settings.json is damaged"), "\(engine.stderrText)")
        // New choices are saved to a fresh file.
        #expect(await engine.result(DiagnosticsSetEnabledRequest(enabled: true))?["enabled"] == true)
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent("settings.json"))) as? [String: Any]
        #expect(saved?["diagnosticsEnabled"] as? Bool == true)
    }

    @Test func corruptPagesInTheReferenceAreATypedErrorWithAFallback() async throws {
        let kit = try ReferenceTests.kit.get()
        let data = Self.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        let imported = await first.call(DatabaseImportRequest(path: kit.stol.path), timeout: .seconds(60))
        #expect(imported?["result"]?["source"] == "reference")
        first.closeStdin()
        #expect(await first.waitForExit() == 0)
        try Self.damagePages(of: "names", in: ReferenceTests.referenceFile(data))

        let engine = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        #expect(await engine.result(DatabaseInfoRequest())?["source"] == "reference")
        #expect(await engine.result(DatabaseInfoRequest())?["damage"] == nil)
        let leo = try #require(Int64(try SQLiteCLI.run(kit.database, "SELECT id FROM taxa WHERE scientific_name = 'Panthera leo'").first ?? ""))
        let names = await engine.call(TaxonNamesRequest(id: leo))
        #expect(names?["error"]?["code"] == -32020, "\(String(describing: names))")
        #expect(names?["error"]?["data"]?["kind"] == "databaseCorrupt")
        #expect(names?["error"]?["data"]?["fallback"] == "database/deactivateReference")
        let damage = await engine.result(DatabaseInfoRequest())?["damage"]
        #expect(damage?["fallback"] == "database/deactivateReference" && damage?["detail"]?.stringValue != nil, "\(String(describing: damage))")
        // The client falls back; the bundled database answers, with no damage reported.
        #expect(await engine.result(DeactivateReferenceRequest())?["source"] == "bundled")
        #expect(await engine.result(DatabaseInfoRequest())?["damage"] == nil)
        #expect(await engine.result(TaxonRootsRequest())?["roots"]?.arrayValue?.isEmpty == false)
    }

    @Test func oneDamagedMediaPackNeverHidesAnother() async throws {
        let kit = try MediaTests.kit.get()
        let data = Self.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let other = kit.file("other-\(UUID().uuidString).stolmedia")
        #expect(try MediaTests.packMedia(kit, manifest: "panthera.png,\(kit.tigris),Drawing,CC0\n", id: "a-damaged", out: other).code == 0)
        let engine = try EngineProcess(["--database", kit.database.path, "--trusted-key", kit.publicKey], dataDirectory: data)
        for pack in [kit.pack, other] {
            #expect(await engine.call(MediaImportRequest(path: pack.path), timeout: .seconds(60))?["result"] != nil)
        }
        #expect(await engine.result(MediaImageRequest(taxonId: kit.leo))?["width"] == 16)
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)
        // "a-damaged" sorts first, so it is read before the healthy pack.
        try Self.damagePages(of: nil, in: data.appendingPathComponent("Media/a-damaged.sqlite"))
        let again = try EngineProcess(["--database", kit.database.path, "--trusted-key", kit.publicKey], dataDirectory: data)
        #expect(await again.result(MediaImageRequest(taxonId: kit.leo))?["width"] == 16)
        #expect(again.stderrText.contains("media pack a-damaged cannot be read"), "\(again.stderrText)")
        withExtendedLifetime(engine) {}
    }
}

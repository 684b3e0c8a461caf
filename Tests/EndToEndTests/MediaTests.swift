import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// Minimal valid PNGs written in code: RGB, 8 bits, one stored (uncompressed) deflate block.
enum TestPNG {
    static func make(width: Int, height: Int, color: (UInt8, UInt8, UInt8)) -> Data {
        var raw: [UInt8] = []
        for _ in 0..<height {
            raw.append(0)
            for _ in 0..<width { raw += [color.0, color.1, color.2] }
        }
        precondition(raw.count < 65536)
        var zlib: [UInt8] = [0x78, 0x01, 0x01]
        zlib += le16(raw.count) + le16(~raw.count & 0xFFFF) + raw
        zlib += be32(adler32(raw))
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0])
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return Data(png)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in bytes { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        return b << 16 | a
    }
}

/// Media packs over the real binary: pack-media, import with progress, packs, images with the
/// genus fallback, tampered packs, hostile delete ids.
@Suite(.serialized) struct MediaTests {
    struct Kit: Sendable {
        var dir: URL
        var database: URL
        var key: URL
        var otherKey: URL
        var publicKey: String
        var pack: URL
        var leo: Int64
        var tigris: Int64
        var panthera: Int64
        var catus: Int64
        var wolf: Int64
        var png: [String: Data]

        func file(_ name: String) -> URL { dir.appendingPathComponent(name) }
    }

    static func id(_ database: URL, _ name: String) throws -> Int64 {
        let rows = try SQLiteCLI.run(database, "SELECT id FROM taxa WHERE scientific_name = '\(name)'")
        return try #require(rows.first.flatMap { Int64($0) }, "\(name)")
    }

    static func packMedia(_ kit: Kit, manifest: String, id: String, name: String = "Test pack", version: String = "1", key: URL? = nil, out: URL) throws -> (code: Int32, stdout: String, stderr: String) {
        let csv = kit.file("manifest-\(UUID().uuidString).csv")
        try manifest.write(to: csv, atomically: true, encoding: .utf8)
        return try EngineBinary.run(["pack-media", "--images", kit.file("images").path, "--manifest", csv.path, "--id", id, "--name", name,
                                      "--pack-version", version, "--key", (key ?? kit.key).path, "--out", out.path])
    }

    static let kit = Result { () throws -> Kit in
        let database = try Fixtures.buildDatabase()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-media-\(UUID().uuidString)")
        let images = dir.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let key = dir.appendingPathComponent("test.key"), otherKey = dir.appendingPathComponent("other.key")
        let keygen = try EngineBinary.run(["keygen", "--out", key.path])
        guard keygen.code == 0 else { throw Fixtures.FixtureError(message: keygen.stderr) }
        _ = try EngineBinary.run(["keygen", "--out", otherKey.path])
        let png = ["leo-small.png": TestPNG.make(width: 4, height: 3, color: (200, 150, 50)),
                   "leo-big.png": TestPNG.make(width: 16, height: 12, color: (210, 160, 60)),
                   "panthera.png": TestPNG.make(width: 8, height: 8, color: (10, 20, 30))]
        for (name, data) in png { try data.write(to: images.appendingPathComponent(name)) }
        var kit = Kit(dir: dir, database: database, key: key, otherKey: otherKey, publicKey: keygen.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                      pack: dir.appendingPathComponent("big-cats.stolmedia"), leo: try id(database, "Panthera leo"), tigris: try id(database, "Panthera tigris"),
                      panthera: try id(database, "Panthera"), catus: try id(database, "Felis catus"), wolf: try id(database, "Canis lupus"), png: png)
        let manifest = """
            file,taxonId,credit,license
            leo-small.png,\(kit.leo),"Photo: A. Person, Wikimedia",CC BY 4.0
            leo-big.png,\(kit.leo),"Photo: B. ""Quoted"" Person",CC BY-SA 4.0
            panthera.png,\(kit.panthera),Drawing: C. Person,CC0 1.0

            """
        let run = try packMedia(kit, manifest: manifest, id: "big-cats", name: "Big cats", version: "2026.1", out: kit.pack)
        guard run.code == 0 else { throw Fixtures.FixtureError(message: run.stderr) }
        kit.png = png
        return kit
    }

    func engine(_ data: URL? = nil) throws -> EngineProcess {
        let kit = try Self.kit.get()
        return try EngineProcess(["--database", kit.database.path, "--trusted-key", kit.publicKey],
                                 dataDirectory: data ?? FileManager.default.temporaryDirectory.appendingPathComponent("stol-media-data-\(UUID().uuidString)"))
    }

    func expectError(_ response: JSONValue?, code: Int, kind: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response?["error"]?["code"] == .integer(code), "\(String(describing: response))", sourceLocation: sourceLocation)
        #expect(response?["error"]?["data"]?["kind"] == .string(kind), "\(String(describing: response))", sourceLocation: sourceLocation)
    }

    func importPack(_ engine: EngineProcess, _ url: URL) async -> JSONValue? {
        await engine.call(MediaImportRequest(path: url.path), timeout: .seconds(60))
    }

    @Test func importListReadAndFallBackToTheGenus() async throws {
        let kit = try Self.kit.get()
        let engine = try engine()
        #expect(await engine.result(MediaPacksRequest())?["packs"]?.arrayValue?.map { $0["id"] } == ["bundled"])
        #expect(await engine.call(MediaImageRequest(taxonId: kit.leo))?["result"] == .null)

        engine.sendRequest(MediaImportRequest(path: kit.pack.path), id: "imp", progressToken: "p")
        let response = try #require(await engine.next(timeout: .seconds(60)) { $0["id"] == "imp" })
        let pack = try #require(response["result"], "\(response)")
        #expect(pack["id"] == "big-cats")
        #expect(pack["name"] == "Big cats")
        #expect(pack["version"] == "2026.1")
        #expect(pack["imageCount"] == 3)
        #expect((pack["bytes"]?.int64Value ?? 0) > 0)
        #expect(pack["deletable"] == true)
        // Reports may be coalesced when they come fast; begin and end never are.
        var values: [JSONValue] = []
        while let progress = await engine.next(timeout: .milliseconds(200), where: { $0["method"] == "$/progress" }) {
            values.append(progress["params"]?["value"] ?? nil)
        }
        #expect(values.first?["kind"] == "begin" && values.first?["title"] == "Importing media pack", "\(values)")
        #expect(values.last?["kind"] == "end" && values.last?["message"] == "imported", "\(values)")
        let fractions = values.compactMap { $0["fraction"]?.doubleValue }
        #expect(fractions == fractions.sorted(), "\(fractions)")
        #expect(FileManager.default.fileExists(atPath: engine.dataDirectory.appendingPathComponent("Media/big-cats.sqlite").path))

        let packs = try #require(await engine.result(MediaPacksRequest())?["packs"]?.arrayValue)
        #expect(packs.map { $0["id"] } == ["bundled", "big-cats"])

        // The largest of the species' own images.
        let leo = try #require(await engine.result(MediaImageRequest(taxonId: kit.leo)))
        #expect(leo["mimeType"] == "image/png")
        #expect(leo["width"] == 16 && leo["height"] == 12)
        #expect(leo["credit"] == #"Photo: B. "Quoted" Person"#)
        #expect(leo["license"] == "CC BY-SA 4.0")
        #expect(leo["fallbackFrom"] == nil)
        #expect(Data(base64Encoded: leo["data"]?.stringValue ?? "") == kit.png["leo-big.png"])

        // A species without its own image shows its genus's and says so.
        let tigris = try #require(await engine.result(MediaImageRequest(taxonId: kit.tigris)))
        #expect(tigris["taxonId"] == .integer(Int(kit.panthera)))
        #expect(tigris["fallbackFrom"]?["taxonId"] == .integer(Int(kit.panthera)))
        #expect(tigris["fallbackFrom"]?["rank"] == "genus")
        #expect(tigris["fallbackFrom"]?["scientificName"] == "Panthera")
        #expect(Data(base64Encoded: tigris["data"]?.stringValue ?? "") == kit.png["panthera.png"])

        // No image and no genus image (the bundled dog is no picture of a wolf); an unknown id; a bad id.
        #expect(await engine.call(MediaImageRequest(taxonId: kit.wolf))?["result"] == .null)
        #expect(await engine.call(MediaImageRequest(taxonId: 424242))?["result"] == .null)
        expectError(await engine.call(MediaImageRequest(taxonId: 0)), code: -32602, kind: "invalidParams")

        // storage/report lists the pack.
        let report = try #require(await engine.result(StorageReportRequest()))
        #expect(report["mediaPacks"]?.arrayValue?.last?["id"] == "big-cats")
        #expect(report["mediaPacks"]?.arrayValue?.last?["bytes"] == pack["bytes"])

        // Deleting it.
        #expect(await engine.result(MediaDeletePackRequest(id: "big-cats"))?["deleted"] == true)
        #expect(await engine.result(MediaPacksRequest())?["packs"]?.arrayValue?.count == 1)
        #expect(await engine.call(MediaImageRequest(taxonId: kit.leo))?["result"] == .null)
        expectError(await engine.call(MediaDeletePackRequest(id: "big-cats")), code: -32002, kind: "mediaPackNotFound")
    }

    @Test func tamperedPacksAreRefusedAndInstalledPacksUntouched() async throws {
        let kit = try Self.kit.get()
        let engine = try engine()
        #expect(await importPack(engine, kit.pack)?["result"]?["id"] == "big-cats")
        let installed = engine.dataDirectory.appendingPathComponent("Media/big-cats.sqlite")
        let before = try Data(contentsOf: installed)

        var bytes = try Data(contentsOf: kit.pack)
        bytes[bytes.count / 2] ^= 0x01
        let flipped = kit.file("flipped.stolmedia")
        try bytes.write(to: flipped)
        expectError(await importPack(engine, flipped), code: -32021, kind: "checksumMismatch")

        let otherKey = kit.file("other-key.stolmedia")
        let run = try Self.packMedia(kit, manifest: "panthera.png,\(kit.leo),x,CC0\n", id: "big-cats", key: kit.otherKey, out: otherKey)
        #expect(run.code == 0, "\(run.stderr)")
        expectError(await importPack(engine, otherKey), code: -32021, kind: "signatureInvalid")

        // A signed taxonomy database is not a media pack, and the reverse.
        let stol = kit.file("db.stol")
        let pack = try EngineBinary.run(["pack", "--db", kit.database.path, "--key", kit.key.path, "--out", stol.path])
        #expect(pack.code == 0, "\(pack.stderr)")
        expectError(await importPack(engine, stol), code: -32021, kind: "notAStolFile")
        expectError(await engine.call(DatabaseImportRequest(path: kit.pack.path)), code: -32020, kind: "notAStolFile")
        expectError(await importPack(engine, kit.file("missing.stolmedia")), code: -32021, kind: "fileUnreadable")

        #expect(try Data(contentsOf: installed) == before)
        #expect(await engine.result(MediaPacksRequest())?["packs"]?.arrayValue?.count == 2)
        #expect(await engine.result(MediaCancelImportRequest())?["cancelled"] == false)

        // The bundled cat shows until a pack has a cat of its own.
        #expect(await engine.result(MediaImageRequest(taxonId: kit.catus))?["packId"] == "bundled")
        // A valid pack with the same id replaces the installed one, and its cat overrides the bundled one.
        let replacement = kit.file("replacement.stolmedia")
        #expect(try Self.packMedia(kit, manifest: "panthera.png,\(kit.catus),Drawing,CC0\n", id: "big-cats", version: "2", out: replacement).code == 0)
        let replaced = await importPack(engine, replacement)?["result"]
        #expect(replaced?["imageCount"] == 1 && replaced?["version"] == "2", "\(String(describing: replaced))")
        #expect(await engine.result(MediaImageRequest(taxonId: kit.catus))?["width"] == 8)
        #expect(await engine.call(MediaImageRequest(taxonId: kit.leo))?["result"] == .null)
        let tmp = ReferenceTests.tmpFiles(engine.dataDirectory)
        #expect(tmp.isEmpty, "\(tmp)")
    }

    @Test func hostileIdsAreInvalidParams() async throws {
        let kit = try Self.kit.get()
        let engine = try engine()
        #expect(await importPack(engine, kit.pack)?["result"]?["id"] == "big-cats")
        let outside = engine.dataDirectory.appendingPathComponent("victim.sqlite")
        try Data("keep".utf8).write(to: outside)
        for id in ["../x", "../victim", "/etc/passwd", "", ".", "..", "a/b", "big-cats/../../victim", ".hidden", "a\u{0}b", "a b", String(repeating: "a", count: 101)] {
            expectError(await engine.call(MediaDeletePackRequest(id: id)), code: -32602, kind: "invalidParams")
        }
        expectError(await engine.call(MediaDeletePackRequest.self, params: .object(["id": 5])), code: -32602, kind: "invalidParams")
        #expect(FileManager.default.fileExists(atPath: outside.path))
        #expect(await engine.result(MediaPacksRequest())?["packs"]?.arrayValue?.count == 2)
    }

    @Test func packMediaRejectsBadInput() throws {
        let kit = try Self.kit.get()
        let out = kit.file("bad.stolmedia")
        #expect(try Self.packMedia(kit, manifest: "missing.png,1,x,CC0\n", id: "p", out: out).code != 0)
        #expect(try Self.packMedia(kit, manifest: "panthera.png,notanumber,x,CC0\n", id: "p", out: out).code != 0)
        #expect(try Self.packMedia(kit, manifest: "panthera.png,1,x,CC0\n", id: "../p", out: out).code != 0)
        try Data("not an image".utf8).write(to: kit.file("images/text.png"))
        #expect(try Self.packMedia(kit, manifest: "text.png,1,x,CC0\n", id: "p", out: out).code != 0)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}

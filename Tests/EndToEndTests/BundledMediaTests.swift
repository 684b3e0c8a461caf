import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// The photographs that ship with the engine, over the real binary and the embedded database:
/// each served for its taxon with its credits, in both sizes, by lists of ids; bad sizes and
/// lists refused; never deletable; counted in the storage report.
@Suite struct BundledMediaTests {
    static let folder = EngineBinary.repositoryRoot.appendingPathComponent("Sources/STOLEngine/Resources/BundledMedia")

    struct Photo {
        var file: String
        var scientificName: String
        var author: String
        var license: String
        var source: String
    }

    /// `photos.tsv`, read here with no help from the engine.
    static func photos() throws -> [Photo] {
        let text = try String(contentsOf: folder.appendingPathComponent("photos.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Photo(file: f[0], scientificName: f[1], author: f[2], license: f[3], source: f[4])
        }
    }

    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// The taxon a photo should show in the embedded database, found with sqlite3: its name, a
    /// synonym, or for a trinomial (a domestic form) genus + last epithet; nil when none.
    static func expectedTaxon(_ name: String) throws -> Int64? {
        func lookup(_ n: String) throws -> Int64? {
            let q = quoted(n)
            let rows = try EmbeddedDatabaseTests.query("""
                SELECT id FROM taxa WHERE scientific_name = \(q) COLLATE NOCASE
                UNION ALL SELECT taxon_id FROM names WHERE name = \(q) COLLATE NOCASE AND name_type = 'synonym' LIMIT 1
                """)
            return rows.first.flatMap { Int64($0) }
        }
        if let id = try lookup(name) { return id }
        let words = name.split(separator: " ")
        return words.count == 3 ? try lookup("\(words[0]) \(words[2])") : nil
    }

    static func pixels(_ image: JSONValue?) -> Int {
        max(Int(image?["width"]?.int64Value ?? 0), Int(image?["height"]?.int64Value ?? 0))
    }

    @Test func everyMatchedPhotoIsServedWithItsCreditsInBothSizes() async throws {
        let engine = try EngineProcess()
        let photos = try Self.photos()
        #expect(photos.count == 24)
        var unmatched: [String] = []
        for photo in photos {
            guard let id = try Self.expectedTaxon(photo.scientificName) else {
                unmatched.append(photo.scientificName)
                continue
            }
            for size in [ImageSize.thumbnail, .page] {
                let image = try #require(await engine.result(MediaImageRequest(taxonId: id, size: size)),
                                         "\(photo.scientificName) \(size)")
                #expect(image["taxonId"] == .integer(Int(id)))
                #expect(image["packId"] == "bundled")
                #expect(image["author"] == .string(photo.author))
                #expect(image["license"] == .string(photo.license))
                #expect(image["source"] == .string(photo.source))
                #expect(image["credit"]?.stringValue?.contains(photo.author) == true)
                #expect(image["mimeType"] == "image/jpeg")
                #expect(image["fallbackFrom"] == nil)
                let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(size.rawValue).appendingPathComponent(photo.file))
                #expect(Data(base64Encoded: image["data"]?.stringValue ?? "") == bytes, "\(photo.file) \(size)")
                if size == .thumbnail { #expect(Self.pixels(image) == 160, "\(photo.file)") } else { #expect((161...800).contains(Self.pixels(image)), "\(photo.file)") }
            }
            // Without a size: the largest, as before sizes existed.
            #expect(Self.pixels(await engine.result(MediaImageRequest(taxonId: id))) > 160)
        }
        // What the database lacks is reported, not failed on.
        let packs = try #require(await engine.result(MediaPacksRequest())?["packs"]?.arrayValue)
        let bundled = try #require(packs.first)
        #expect(bundled["id"] == "bundled" && bundled["deletable"] == false && bundled["bundled"] == true)
        #expect(bundled["imageCount"] == 24)
        #expect(bundled["unmatched"]?.arrayValue?.compactMap(\.stringValue) == unmatched)
        #expect(unmatched.count < 12, "\(unmatched)")
    }

    @Test func theDogIsFoundAsItsDomesticFormAndTheKoalaByName() async throws {
        let engine = try EngineProcess()
        let koala = try #require(try Self.expectedTaxon("Phascolarctos cinereus"))
        let image = try #require(await engine.result(MediaImageRequest(taxonId: koala, size: .page)))
        #expect(image["author"] == "BurningWell" && image["license"] == "Public Domain")
        #expect(image["width"] == 600 && image["height"] == 800)
        #expect(image["depicts"] == nil)
        // The credits name the dog as NCBI does; the embedded database as a species of Canis.
        if let dog = try EmbeddedDatabaseTests.query("SELECT id FROM taxa WHERE scientific_name = 'Canis familiaris'").first.flatMap({ Int64($0) }) {
            let served = try #require(await engine.result(MediaImageRequest(taxonId: dog, size: .thumbnail)))
            #expect(served["depicts"] == "Canis lupus familiaris")
            #expect(served["author"] == "Hans Kemperman")
        }
        // Never the wild species.
        let wolf = try #require(try EmbeddedDatabaseTests.query("SELECT id FROM taxa WHERE scientific_name = 'Canis lupus'").first.flatMap { Int64($0) })
        #expect(await engine.call(MediaImageRequest(taxonId: wolf))?["result"] == .null)
    }

    @Test func oneCallFillsAResultList() async throws {
        let engine = try EngineProcess()
        let koala = try #require(try Self.expectedTaxon("Phascolarctos cinereus"))
        let jaguar = try #require(try Self.expectedTaxon("Panthera onca"))
        let lion = try #require(try EmbeddedDatabaseTests.query("SELECT id FROM taxa WHERE scientific_name = 'Panthera leo'").first.flatMap { Int64($0) })
        let ids: [Int64] = [jaguar, lion, koala, jaguar]
        let list = try #require(await engine.result(MediaImageRequest(taxonIds: ids, size: .thumbnail)))
        let entries = try #require(list["images"]?.arrayValue)
        #expect(entries.map { $0["taxonId"] } == ids.map { JSONValue.integer($0) })
        #expect(entries[1]["image"] == .null)  // no lion photo ships
        for i in [0, 2, 3] {
            #expect(entries[i]["image"]?["taxonId"] == JSONValue.integer(ids[i]))
            #expect(Self.pixels(entries[i]["image"]) == 160)
            #expect(entries[i]["image"]?["author"] != nil && entries[i]["image"]?["source"] != nil)
        }
        // Fifty ids are allowed; ids no database knows are null entries.
        #expect(await engine.result(MediaImageRequest(taxonIds: Array(1...50)))?["images"]?.arrayValue?.count == 50)
    }

    @Test func badSizesAndListsAreTypedErrors() async throws {
        let engine = try EngineProcess()
        func expectInvalid(_ params: JSONValue, field: String, sourceLocation: SourceLocation = #_sourceLocation) async -> JSONValue? {
            let response = await engine.call(MediaImageRequest.self, params: params)
            #expect(response?["error"]?["code"] == -32602, "\(String(describing: response))", sourceLocation: sourceLocation)
            #expect(response?["error"]?["data"]?["kind"] == "invalidParams", sourceLocation: sourceLocation)
            #expect(response?["error"]?["data"]?["field"] == JSONValue.string(field), "\(String(describing: response))", sourceLocation: sourceLocation)
            return response?["error"]?["data"]
        }
        let size = await expectInvalid(.object(["taxonId": 1, "size": "huge"]), field: "size")
        #expect(size?["allowed"] == ["thumbnail", "page"])
        let many = await expectInvalid(.object(["taxonIds": .array((1...51).map { .integer($0) })]), field: "taxonIds")
        #expect(many?["limit"] == 50 && many?["count"] == 51)
        _ = await expectInvalid(.object(["taxonIds": []]), field: "taxonIds")
        _ = await expectInvalid(.object(["taxonId": 1, "taxonIds": [1]]), field: "taxonIds")
        _ = await expectInvalid(.object([:]), field: "taxonId")
        _ = await expectInvalid(.object(["taxonIds": [1, 0]]), field: "taxonIds.1")
        _ = await expectInvalid(.object(["taxonId": 1, "size": 3]), field: "size")
        // The engine keeps serving.
        #expect(await engine.result(PingRequest()) != nil)
    }

    @Test func theBundledPackCannotBeDeletedNorTakenOver() async throws {
        let engine = try EngineProcess()
        let response = await engine.call(MediaDeletePackRequest(id: "bundled"))
        #expect(response?["error"]?["code"] == -32003)
        #expect(response?["error"]?["data"]?["kind"] == "mediaPackNotDeletable")
        #expect(await engine.result(MediaPacksRequest())?["packs"]?.arrayValue?.first?["id"] == "bundled")
        // A file put where an installed pack of that id would go is ignored, never served or deleted.
        let media = engine.dataDirectory.appendingPathComponent("Media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try Data("not a pack".utf8).write(to: media.appendingPathComponent("bundled.sqlite"))
        #expect(await engine.result(MediaPacksRequest())?["packs"]?.arrayValue?.count == 1)
        #expect(await engine.call(MediaDeletePackRequest(id: "bundled"))?["error"]?["code"] == -32003)
        #expect(FileManager.default.fileExists(atPath: media.appendingPathComponent("bundled.sqlite").path))
        let report = try #require(await engine.result(StorageReportRequest()))
        let bundled = try #require(report["mediaPacks"]?.arrayValue?.first)
        let files = try FileManager.default.subpathsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".jpg") }
        let onDisk = try files.reduce(Int64(0)) { $0 + ((try FileManager.default.attributesOfItem(atPath: Self.folder.appendingPathComponent($1).path)[.size] as? NSNumber)?.int64Value ?? 0) }
        #expect(bundled["bytes"]?.int64Value == onDisk)
        #expect(bundled["deletable"] == false)
    }
}

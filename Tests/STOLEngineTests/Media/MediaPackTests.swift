import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

/// The media pack format: image headers, the manifest, pack ids, and packs read back through
/// the shared importer.
@Suite struct MediaPackTests {
    /// A PNG signature and IHDR for `width`×`height`: all `ImageHeader` reads.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(width) + be(height) + [8, 2, 0, 0, 0] + be(0)
    }

    @Test func imageHeadersGiveTypeAndSize() {
        #expect(ImageHeader.read(Self.pngHeader(width: 640, height: 480)) == .init(mimeType: "image/png", width: 640, height: 480))
        // SOI, an APP0 segment, then SOF0 with height 300, width 400.
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0x2C, 0x01, 0x90, 0x03, 0, 0, 0, 0, 0, 0]
        #expect(ImageHeader.read(jpeg) == .init(mimeType: "image/jpeg", width: 400, height: 300))
        #expect(ImageHeader.read(Array("GIF89a not supported".utf8)) == nil)
        #expect(ImageHeader.read([]) == nil)
    }

    @Test func packIDsCannotEscapeTheMediaFolder() {
        for good in ["big-cats", "birds_2026.1", "A"] { #expect(MediaPackSchema.isValidPackID(good), "\(good)") }
        for bad in ["", ".", "..", "../x", "/etc", "a/b", ".hidden", "a b", "é", "a\\b", String(repeating: "a", count: 101)] {
            #expect(!MediaPackSchema.isValidPackID(bad), "\(bad)")
        }
    }

    @Test func manifestsAllowQuotesCommasAndAHeader() throws {
        let rows = MediaPackBuilder.parseCSV("file,taxonId,credit,license\na.png,1,\"Photo: A, B\",CC BY 4.0\r\nb.png,2,\"say \"\"hi\"\"\",CC0\n")
        #expect(rows == [["file", "taxonId", "credit", "license"], ["a.png", "1", "Photo: A, B", "CC BY 4.0"], ["b.png", "2", "say \"hi\"", "CC0"]])
    }

    @Test func packsRoundTripThroughTheSharedImporter() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let images = dir.url.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try Data(Self.pngHeader(width: 3, height: 2)).write(to: images.appendingPathComponent("a.png"))
        let manifest = try dir.write("m.csv", "a.png,42,credit,CC0\n")
        let pair = Signing.generateKeyPair(), other = Signing.generateKeyPair()
        let out = dir.url.appendingPathComponent("p.stolmedia")
        let header = try MediaPackBuilder.pack(images: images, manifest: manifest, id: "p", name: "P", version: "1", secretKey: pair.secretKey, to: out)
        let bytes = try Data(contentsOf: out)
        #expect(Array(bytes.prefix(8)) == Array("STOL\0MP\u{1}".utf8))
        #expect(header.signedMessage.count == 44)

        let importer = StolFileImporter(scratch: ScratchDirectory(in: dir.url.appendingPathComponent("tmp")), trustedKeys: [pair.publicKey], limits: .init(), kind: .media)
        let staged = try importer.stage(out, job: ImportJob()) { _, _ in }
        #expect(staged.schemaVersion == MediaPackSchema.currentVersion)
        // The database importer refuses it, and the media importer refuses other keys.
        let databases = StolFileImporter(scratch: ScratchDirectory(in: dir.url.appendingPathComponent("tmp")), trustedKeys: [pair.publicKey], limits: .init())
        #expect(throws: ReferenceError.notAStolFile("wrong magic bytes")) { try databases.stage(out, job: ImportJob()) { _, _ in } }
        let untrusted = StolFileImporter(scratch: ScratchDirectory(in: dir.url.appendingPathComponent("tmp")), trustedKeys: [other.publicKey], limits: .init(), kind: .media)
        #expect(throws: ReferenceError.signatureInvalid) { try untrusted.stage(out, job: ImportJob()) { _, _ in } }
        // A database signature does not verify as a media pack: the signed messages differ.
        var relabeled = bytes
        let databaseSignature = Signing.sign(StolFormat.Kind.database.signedMessage(sha256: header.payloadSHA256, schemaVersion: 1), secretKey: pair.secretKey)
        relabeled.replaceSubrange(44..<108, with: databaseSignature)
        try relabeled.write(to: out)
        #expect(throws: ReferenceError.signatureInvalid) { try importer.stage(out, job: ImportJob()) { _, _ in } }
    }

    @Test func aCancelledMediaImportLeavesNothingBehind() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let images = dir.url.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        try Data(Self.pngHeader(width: 3, height: 2)).write(to: images.appendingPathComponent("a.png"))
        let pair = Signing.generateKeyPair()
        let out = dir.url.appendingPathComponent("p.stolmedia")
        try MediaPackBuilder.pack(images: images, manifest: try dir.write("m.csv", "a.png,42,credit,CC0\n"), id: "p", name: "P", version: "1", secretKey: pair.secretKey, to: out)
        let tmp = dir.url.appendingPathComponent("tmp")
        let job = ImportJob()
        job.cancel()
        let importer = StolFileImporter(scratch: ScratchDirectory(in: tmp), trustedKeys: [pair.publicKey], limits: .init(), kind: .media)
        #expect(throws: ReferenceError.cancelled) { try importer.stage(out, job: job) { _, _ in } }
        #expect(ReferenceFormatTests.scratchFiles(in: tmp).isEmpty)
    }
}

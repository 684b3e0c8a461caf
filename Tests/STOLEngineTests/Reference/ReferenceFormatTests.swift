import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

/// The `.stol` header, libsodium signing and hashing, and the packer read back by the importer.
@Suite struct ReferenceFormatTests {
    @Test func headerRoundTripsAndSignsHashThenVersion() throws {
        let hash = (0..<32).map { UInt8($0) }
        let signature = [UInt8](repeating: 0xAB, count: 64)
        let header = StolFormat.Header(schemaVersion: 0x0102_0304, payloadSHA256: hash, signature: signature)
        let bytes = header.bytes
        #expect(bytes.count == StolFormat.headerSize)
        #expect(Array(bytes[0..<8]) == Array("STOL\0DB\u{1}".utf8))
        #expect(Array(bytes[8..<12]) == [0x04, 0x03, 0x02, 0x01])
        #expect(StolFormat.parseHeader(bytes) == header)
        #expect(header.signedMessage == hash + [0x04, 0x03, 0x02, 0x01])
        #expect(StolFormat.parseHeader(Array(bytes.dropLast())) == nil)
        var wrong = bytes
        wrong[0] = 0x58
        #expect(StolFormat.parseHeader(wrong) == nil)
    }

    @Test func sha256MatchesTheKnownVector() {
        var hasher = SHA256Hasher()
        hasher.update(Array("ab".utf8))
        hasher.update(Array("c".utf8))
        #expect(Hex.encode(hasher.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func signaturesVerifyOnlyWithTheSignersKeyAndMessage() throws {
        let a = Signing.generateKeyPair(), b = Signing.generateKeyPair()
        let message = Array("message".utf8)
        let signature = Signing.sign(message, secretKey: a.secretKey)
        #expect(Signing.verify(signature: signature, message: message, publicKey: a.publicKey))
        #expect(!Signing.verify(signature: signature, message: message, publicKey: b.publicKey))
        #expect(!Signing.verify(signature: signature, message: Array("messagf".utf8), publicKey: a.publicKey))
        #expect(try Signing.publicKey(ofSecretKey: a.secretKey) == a.publicKey)
        var damaged = a.secretKey
        damaged[40] ^= 1
        #expect(throws: Signing.KeyError.self) { try Signing.publicKey(ofSecretKey: damaged) }
        #expect(Hex.decode(Hex.encode(a.publicKey)) == a.publicKey)
        #expect(try Signing.parsePublicKey(Signing.releasePublicKeyHex).count == 32)
        #expect(throws: Signing.KeyError.self) { try Signing.parsePublicKey("abc") }
    }

    @Test func keyFilesAreWrittenPrivatelyAndReadBack() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let pair = Signing.generateKeyPair()
        let file = dir.url.appendingPathComponent("key")
        try Signing.writeSecretKey(pair.secretKey, to: file)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(try Signing.readSecretKey(at: file) == pair.secretKey)
        #expect(throws: (any Error).self) { try Signing.writeSecretKey(pair.secretKey, to: file) }
    }

    static func stage(_ file: URL, keys: [[UInt8]], limits: StolFileImporter.Limits = .init(), in dir: URL) throws(ReferenceError) -> StolFileImporter.Staged {
        try StolFileImporter(scratch: ScratchDirectory(in: dir.appendingPathComponent("tmp")), trustedKeys: keys, limits: limits)
            .stage(file, job: ImportJob()) { _, _ in }
    }

    /// The files in every scratch folder under `parent`, lock files aside.
    static func scratchFiles(in parent: URL) -> Set<String> {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        return Set(folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: parent.appendingPathComponent(folder).path)) ?? []).filter { $0 != "owner.lock" }
        })
    }

    @Test func packedFilesPassEveryCheckAndTamperingIsCaught() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let pair = Signing.generateKeyPair(), other = Signing.generateKeyPair()
        let database = try Engine.embeddedDatabaseURL()
        let stol = dir.url.appendingPathComponent("a.stol")
        let header = try StolPacker.pack(database: database, secretKey: pair.secretKey, schemaVersion: try StolPacker.schemaVersion(of: database), to: stol)
        #expect(header.schemaVersion == UInt32(Schema.currentVersion))

        let staged = try Self.stage(stol, keys: [other.publicKey, pair.publicKey], in: dir.url)
        #expect(staged.signedBy == pair.publicKey)
        #expect(try Data(contentsOf: staged.database) == Data(contentsOf: database))

        #expect(throws: ReferenceError.signatureInvalid) { try Self.stage(stol, keys: [other.publicKey], in: dir.url) }

        var bytes = try Data(contentsOf: stol)
        bytes[StolFormat.headerSize + 100] ^= 0x01
        let flipped = dir.url.appendingPathComponent("flipped.stol")
        try bytes.write(to: flipped)
        #expect(throws: ReferenceError.checksumMismatch) { try Self.stage(flipped, keys: [pair.publicKey], in: dir.url) }

        var limits = StolFileImporter.Limits()
        limits.maxDecompressedBytes = 100_000
        #expect(throws: ReferenceError.decompressedTooLarge(limit: 100_000)) { try Self.stage(stol, keys: [pair.publicKey], limits: limits, in: dir.url) }
        limits = .init()
        limits.maxFileBytes = 1000
        #expect(throws: ReferenceError.self) { try Self.stage(stol, keys: [pair.publicKey], limits: limits, in: dir.url) }

        let empty = dir.url.appendingPathComponent("empty.stol")
        try Data().write(to: empty)
        #expect(throws: ReferenceError.notAStolFile("the file is empty")) { try Self.stage(empty, keys: [pair.publicKey], in: dir.url) }

        // Every failure above left nothing behind but the one staged database.
        let left = Self.scratchFiles(in: dir.url.appendingPathComponent("tmp"))
        #expect(left == [staged.database.lastPathComponent, staged.stolCopy.lastPathComponent])
    }

    @Test func cancellationStopsAtTheNextChunkAndCleansUp() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let pair = Signing.generateKeyPair()
        let database = try Engine.embeddedDatabaseURL()
        let stol = dir.url.appendingPathComponent("a.stol")
        try StolPacker.pack(database: database, secretKey: pair.secretKey, schemaVersion: 1, to: stol)
        let job = ImportJob()
        let importer = StolFileImporter(scratch: ScratchDirectory(in: dir.url.appendingPathComponent("tmp")), trustedKeys: [pair.publicKey], limits: .init())
        #expect(throws: ReferenceError.cancelled) {
            try importer.stage(stol, job: job) { fraction, _ in if fraction > 0.3 { job.cancel() } }
        }
        #expect(Self.scratchFiles(in: dir.url.appendingPathComponent("tmp")).isEmpty)
        importer.scratch.remove()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.appendingPathComponent("tmp").path).isEmpty)
    }

    @Test func settingsAreWrittenAtomicallyAndKeepOtherKeys() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let settings = EngineSettings(dataDirectory: dir.url)
        #expect(settings.referenceActive == false)
        try Data(#"{"theme":"dark"}"#.utf8).write(to: settings.url)
        try settings.setReferenceActive(true)
        #expect(settings.referenceActive)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: settings.url)) as? [String: Any]
        #expect(object?["theme"] as? String == "dark")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["settings.json"])
    }
}

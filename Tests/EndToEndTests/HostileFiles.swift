#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport

// A generator of hostile `.stol` and `.stolmedia` files, built byte by byte from the format in
// protocol/README.md, so every fault is exactly the one named and nothing binary is committed.

/// libsodium, loaded at run time: this test target links only STOLRPC, and the generator must
/// sign exactly as a release tool would (Ed25519 over the documented message, SHA-256).
struct Sodium: @unchecked Sendable {
    private typealias SeedKeypair = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?) -> Int32
    private typealias SignDetached = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt64>?, UnsafePointer<UInt8>?, UInt64, UnsafePointer<UInt8>?) -> Int32
    private typealias Hash = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?, UInt64) -> Int32
    private typealias Initialize = @convention(c) () -> Int32

    private let seedKeypair: SeedKeypair
    private let signDetached: SignDetached
    private let hash: Hash

    struct Unavailable: Error, CustomStringConvertible { var description: String }

    static let shared = Result { () throws -> Sodium in
        let names = ["libsodium.so", "libsodium.so.23", "libsodium.so.26", "libsodium.dylib", "/opt/homebrew/lib/libsodium.dylib", "/usr/local/lib/libsodium.dylib"]
        guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW) }).first else { throw Unavailable(description: "libsodium not found (\(names))") }
        func symbol<T>(_ name: String, _: T.Type) throws -> T {
            guard let pointer = dlsym(handle, name) else { throw Unavailable(description: "no \(name) in libsodium") }
            return unsafeBitCast(pointer, to: T.self)
        }
        guard try symbol("sodium_init", Initialize.self)() >= 0 else { throw Unavailable(description: "sodium_init failed") }
        return Sodium(seedKeypair: try symbol("crypto_sign_seed_keypair", SeedKeypair.self),
                      signDetached: try symbol("crypto_sign_detached", SignDetached.self),
                      hash: try symbol("crypto_hash_sha256", Hash.self))
    }

    func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        _ = hash(&out, bytes, UInt64(bytes.count))
        return out
    }

    /// A deterministic key pair: the same seed gives the same key in every run.
    func keyPair(seed: UInt8) -> Key {
        var pk = [UInt8](repeating: 0, count: 32), sk = [UInt8](repeating: 0, count: 64)
        let seedBytes = (0..<32).map { UInt8(truncatingIfNeeded: Int(seed) &* 31 &+ $0) }
        _ = seedKeypair(&pk, &sk, seedBytes)
        return Key(publicKey: pk, secretKey: sk)
    }

    func sign(_ message: [UInt8], _ key: Key) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: 64)
        var length: UInt64 = 0
        _ = signDetached(&signature, &length, message, UInt64(message.count), key.secretKey)
        return signature
    }

    struct Key: Sendable {
        var publicKey: [UInt8]
        var secretKey: [UInt8]
        var hex: String { publicKey.map { String(format: "%02x", $0) }.joined() }
    }
}

/// Bits for a deflate stream: least significant bit first; Huffman codes most significant first.
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var count = 0

    mutating func bits(_ value: Int, _ n: Int) {
        accumulator |= UInt64(value & ((1 << n) - 1)) << UInt64(count)
        count += n
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            count -= 8
        }
    }

    mutating func huffman(_ code: Int, _ n: Int) {
        var reversed = 0
        for i in 0..<n where code & (1 << i) != 0 { reversed |= 1 << (n - 1 - i) }
        bits(reversed, n)
    }

    /// Pads to a byte boundary and returns the stream.
    mutating func finish() -> [UInt8] {
        if count > 0 { bits(0, 8 - count) }
        return bytes
    }
}

/// Raw deflate (RFC 1951) and gzip (RFC 1952), written here so the faults can be placed exactly.
enum Deflate {
    static func literal(_ w: inout BitWriter, _ symbol: Int) {
        switch symbol {
        case 0...143: w.huffman(0x30 + symbol, 8)
        case 144...255: w.huffman(0x190 + symbol - 144, 9)
        case 256...279: w.huffman(symbol - 256, 7)
        default: w.huffman(0xC0 + symbol - 280, 8)
        }
    }

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]

    /// A match of `length` (3…258) at distance 1, the only distance the run encoder needs.
    static func repeatLast(_ w: inout BitWriter, _ length: Int) {
        let index = length == 258 ? 28 : lengthBase.lastIndex { $0 <= length }!
        literal(&w, 257 + index)
        w.bits(length - lengthBase[index], lengthExtra[index])
        w.huffman(0, 5)
    }

    /// One fixed-Huffman block: literals, with runs of a repeated byte as distance-1 matches,
    /// so long zero runs compress about 160 times (the gzip bomb).
    static func fixedBlock(_ w: inout BitWriter, _ data: [UInt8], final: Bool) {
        w.bits(final ? 1 : 0, 1)
        w.bits(1, 2)
        var i = 0
        while i < data.count {
            let byte = data[i]
            literal(&w, Int(byte))
            i += 1
            var run = 0
            while i + run < data.count, data[i + run] == byte { run += 1 }
            while run >= 3 {
                let m = min(run, 258)
                repeatLast(&w, m)
                i += m
                run -= m
            }
        }
        literal(&w, 256)
    }

    static func fixed(_ data: [UInt8]) -> [UInt8] {
        var w = BitWriter()
        fixedBlock(&w, data, final: true)
        return w.finish()
    }

    /// Stored blocks of at most `blockSize` bytes (the last one final).
    static func stored(_ data: [UInt8], blockSize: Int = 65535) -> [UInt8] {
        var out: [UInt8] = []
        var offset = 0
        repeat {
            let n = min(blockSize, data.count - offset)
            let final = offset + n == data.count
            out.append(final ? 1 : 0)
            out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<offset + n]
            offset += n
        } while offset < data.count
        return out
    }

    static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes { crc = crcTable[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    static let gzipHeader: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]

    /// A gzip member around an already deflated `body` of `data`.
    static func gzip(_ data: [UInt8], body: [UInt8]) -> [UInt8] {
        gzipHeader + body + le32(crc32(data)) + le32(UInt32(truncatingIfNeeded: data.count))
    }

    static func gzipStored(_ data: [UInt8]) -> [UInt8] { gzip(data, body: stored(data)) }
    static func gzipFixed(_ data: [UInt8]) -> [UInt8] { gzip(data, body: fixed(data)) }

    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * UInt32($0))) } }
}

/// What a signed file holds, with its magic and signed message (protocol/README.md).
enum StolKind: String, Sendable {
    case database, media

    var magic: [UInt8] {
        switch self {
        case .database: [0x53, 0x54, 0x4F, 0x4C, 0x00, 0x44, 0x42, 0x01]
        case .media: [0x53, 0x54, 0x4F, 0x4C, 0x00, 0x4D, 0x50, 0x01]
        }
    }

    func message(sha256: [UInt8], version: UInt32) -> [UInt8] {
        sha256 + Deflate.le32(version) + (self == .media ? magic : [])
    }

    /// The request that imports a file of this kind.
    func importRequest(_ path: String) -> any RPCRequest {
        self == .database ? DatabaseImportRequest(path: path) : MediaImportRequest(path: path)
    }
    var errorCode: Int { self == .database ? -32020 : -32021 }
    var fileExtension: String { self == .database ? "stol" : "stolmedia" }
}

/// Builds envelopes: header fields are given separately so each can be wrong on its own.
struct EnvelopeWriter: Sendable {
    var sodium: Sodium
    var trusted: Sodium.Key
    var untrusted: Sodium.Key

    /// magic ‖ u32le(version) ‖ sha256(payload) ‖ signature(sha ‖ version [‖ magic]) ‖ payload.
    func envelope(_ kind: StolKind, version: UInt32, payload: [UInt8], key: Sodium.Key? = nil) -> [UInt8] {
        let sha = sodium.sha256(payload)
        let signature = sodium.sign(kind.message(sha256: sha, version: version), key ?? trusted)
        return kind.magic + Deflate.le32(version) + sha + signature + payload
    }

    /// Re-signs `bytes` after a change: the SHA-256 and signature are made right again.
    func resign(_ kind: StolKind, _ bytes: [UInt8], key: Sodium.Key? = nil) -> [UInt8] {
        let version = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[8 + $1]) << (8 * UInt32($1)) }
        return envelope(kind, version: version, payload: Array(bytes[108...]), key: key)
    }
}

/// One hostile input and the answer the engine owes it.
struct HostileCase: Sendable {
    enum Family: String, Sendable, CaseIterable {
        case envelope, truncation, gzip, sqlite, paths
        /// A valid database with one value, link or definition changed (`HostileFiles.contentCases`).
        case content
    }

    /// The file given to the engine; most are bytes, some are not regular files at all.
    enum Input: Sendable {
        case bytes([UInt8])
        case missing, directory, fifo, symlinkLoop, unreadable([UInt8])
        case sparse(Int64)
        case device(String)
        case throughAFile([UInt8])
        case longName
    }

    var family: Family
    var kind: StolKind
    var name: String
    /// Built only when the case runs, so the whole sweep is never in memory at once.
    var make: @Sendable () throws -> Input
    var expectedKind: String
    /// Extra `data` members that must match exactly (`found`, `expected`, `limit`, `size`).
    var fields: [String: JSONValue] = [:]
    /// Text `data.detail` must hold (the table, column or object it names).
    var detail: String? = nil
    /// Part of the quick subset (`STOL_HOSTILE_QUICK=1`); the default run tries every case.
    var representative = false
}

/// Hostile `.stol` and media-pack files around a valid taxonomy database and media pack.
struct HostileFiles: Sendable {
    let writer: EnvelopeWriter
    /// A valid taxonomy database (the end-to-end fixture) and media pack database.
    let database: [UInt8]
    let mediaDatabase: [UInt8]
    let databaseURL: URL
    let mediaURL: URL
    let scratch: URL
    /// Panthera leo in the fixture: the media pack's image, and the taxon read after each case.
    let leo: Int64
    /// The decompressed-size limit the hostile engines run with (`--max-import-bytes`).
    static let importLimit = 1 << 20

    static let mediaSchema = """
        CREATE TABLE media_info (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
        CREATE TABLE images (
            id INTEGER PRIMARY KEY,
            taxon_id INTEGER NOT NULL,
            mime_type TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            credit TEXT NOT NULL,
            license TEXT NOT NULL,
            bytes BLOB NOT NULL
        );
        CREATE INDEX idx_images_taxon ON images(taxon_id);
        """

    /// Builds the fixture database and a media pack database with one image of Panthera leo.
    init(scratch: URL) throws {
        let sodium = try Sodium.shared.get()
        writer = EnvelopeWriter(sodium: sodium, trusted: sodium.keyPair(seed: 1), untrusted: sodium.keyPair(seed: 2))
        self.scratch = scratch
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let fixture = try Fixtures.buildDatabase()
        databaseURL = scratch.appendingPathComponent("base.sqlite")
        try? FileManager.default.removeItem(at: databaseURL)
        try FileManager.default.copyItem(at: fixture, to: databaseURL)
        try? FileManager.default.removeItem(at: fixture.deletingLastPathComponent())
        database = Array(try Data(contentsOf: databaseURL))
        guard let leo = Int64(try SQLiteCLI.run(databaseURL, "SELECT id FROM taxa WHERE scientific_name = 'Panthera leo'").first ?? "") else {
            throw Fixtures.FixtureError(message: "no Panthera leo in the fixture")
        }
        self.leo = leo

        mediaURL = scratch.appendingPathComponent("base-media.sqlite")
        let png = TestPNG.make(width: 6, height: 4, color: (90, 120, 30)).map { String(format: "%02x", $0) }.joined()
        try Self.sqlite(mediaURL, Self.mediaSchema + """
            INSERT INTO media_info VALUES ('format_version', '1'), ('id', 'hostile-base'), ('name', 'Base'), ('version', '1');
            INSERT INTO images(taxon_id, mime_type, width, height, credit, license, bytes) VALUES (\(leo), 'image/png', 6, 4, 'Test', 'CC0 1.0', x'\(png)');
            VACUUM;
            """)
        mediaDatabase = Array(try Data(contentsOf: mediaURL))
    }

    /// Runs `sql` with the sqlite3 tool; throws with its message when it fails.
    static func sqlite(_ file: URL, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [file.path]
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data((".bail on\n" + sql + "\n").utf8))
        try input.fileHandleForWriting.close()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, message.isEmpty else {
            throw Fixtures.FixtureError(message: "sqlite3 \(file.lastPathComponent): \(String(decoding: message, as: UTF8.self))")
        }
    }

    /// A copy of `base` changed by `sql` and then `patch` (raw bytes), as bytes.
    func variant(of base: URL, sql: String? = nil, patch: (@Sendable (inout [UInt8]) -> Void)? = nil) throws -> [UInt8] {
        let copy = scratch.appendingPathComponent("variant-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: base, to: copy)
        if let sql { try Self.sqlite(copy, sql) }
        var bytes = Array(try Data(contentsOf: copy))
        patch?(&bytes)
        return bytes
    }

    func valid(_ kind: StolKind) -> [UInt8] {
        kind == .database ? writer.envelope(.database, version: 1, payload: Deflate.gzipStored(database))
            : writer.envelope(.media, version: 1, payload: Deflate.gzipStored(mediaDatabase))
    }

    /// Deterministic pseudo-random bytes.
    static func random(_ count: Int, seed: UInt64) -> [UInt8] {
        SplitMix64.bytes(count, seed: seed)
    }

    static func setBigEndian(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32, width: Int = 4) {
        for i in 0..<width { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(width - 1 - i))) }
    }

    static func bigEndian(_ bytes: [UInt8], _ offset: Int, width: Int = 4) -> Int {
        (0..<width).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }

    // MARK: Families

    /// Every header field wrong: magic, version, SHA-256, signature.
    func envelopeCases(_ kind: StolKind) -> [HostileCase] {
        var cases: [HostileCase] = []
        let writer = self.writer
        let validFile = valid(kind)
        let version = UInt32(1)
        func add(_ name: String, _ expected: String, _ fields: [String: JSONValue] = [:], ci: Bool = false, make: @escaping @Sendable () -> [UInt8]) {
            cases.append(HostileCase(family: .envelope, kind: kind, name: name, make: { .bytes(make()) }, expectedKind: expected, fields: fields, representative: ci))
        }
        // Magic: each byte changed two ways (the last byte is the envelope's format version).
        for i in 0..<8 {
            for (flip, label) in [(UInt8(0x01), "xor01"), (UInt8(0xFF), "xorff")] {
                add("magic byte \(i) \(label)", "notAStolFile", ci: i == 0 || i == 7) { var b = validFile; b[i] ^= flip; return b }
            }
        }
        for formatVersion: UInt8 in [0, 2, 0xFF] {
            add("format version byte \(formatVersion)", "notAStolFile", ci: formatVersion == 2) { var b = validFile; b[7] = formatVersion; return b }
        }
        let other: StolKind = kind == .database ? .media : .database
        add("the \(other.rawValue) magic, signed as \(other.rawValue)", "notAStolFile", ci: true) {
            writer.envelope(other, version: 1, payload: Array(validFile[108...]))
        }
        add("a bare SQLite file", "notAStolFile", ci: true) { kind == .database ? self.database : self.mediaDatabase }
        add("a bare gzip file", "notAStolFile") { Array(validFile[108...]) }
        add("the magic in lower case", "notAStolFile") { var b = validFile; for i in 0..<4 { b[i] |= 0x20 }; return b }

        // Version field: changed without re-signing, and re-signed.
        for v: UInt32 in [0, 2, 0x8000_0000, 0xFFFF_FFFF] {
            add("version \(v) not re-signed", "signatureInvalid", ci: v == 2) {
                var b = validFile
                for (i, byte) in Deflate.le32(v).enumerated() { b[8 + i] = byte }
                return b
            }
            let resigned = v == 0 ? "databaseCorrupt" : "incompatibleSchema"
            add("version \(v) re-signed", resigned, v == 0 ? [:] : ["found": .integer(Int(v)), "expected": .integer(Int(version))], ci: true) {
                writer.envelope(kind, version: v, payload: Array(validFile[108...]))
            }
        }

        // SHA-256: each byte flipped, all zero, all ones; the payload changed under a good hash.
        for i in 0..<32 {
            add("sha256 byte \(i) flipped", "checksumMismatch", ci: i == 0 || i == 31) { var b = validFile; b[12 + i] ^= 0x01; return b }
        }
        add("sha256 zeroed", "checksumMismatch", ci: true) { var b = validFile; for i in 12..<44 { b[i] = 0 }; return b }
        add("sha256 all ones", "checksumMismatch") { var b = validFile; for i in 12..<44 { b[i] = 0xFF }; return b }
        add("sha256 of the empty payload", "checksumMismatch") { var b = validFile; b.replaceSubrange(12..<44, with: writer.sodium.sha256([])); return b }
        add("payload byte flipped, sha256 recomputed, not re-signed", "signatureInvalid", ci: true) {
            var b = validFile
            b[b.count - 9] ^= 0x01
            b.replaceSubrange(12..<44, with: writer.sodium.sha256(Array(b[108...])))
            return b
        }

        // Signature: each byte flipped, zeroed, untrusted key, other messages, malleability.
        for i in 0..<64 {
            add("signature byte \(i) flipped", "signatureInvalid", ci: i == 0 || i == 32 || i == 63) { var b = validFile; b[44 + i] ^= 0x01; return b }
        }
        add("signature zeroed", "signatureInvalid", ci: true) { var b = validFile; for i in 44..<108 { b[i] = 0 }; return b }
        add("signature all ones", "signatureInvalid") { var b = validFile; for i in 44..<108 { b[i] = 0xFF }; return b }
        add("signed by an untrusted key", "signatureInvalid", ci: true) { writer.envelope(kind, version: version, payload: Array(validFile[108...]), key: writer.untrusted) }
        let sha = Array(validFile[12..<44])
        func signedOver(_ message: [UInt8]) -> @Sendable () -> [UInt8] {
            { var b = validFile; b.replaceSubrange(44..<108, with: writer.sodium.sign(message, writer.trusted)); return b }
        }
        add("signature over the SHA-256 alone", "signatureInvalid", ci: true, make: signedOver(sha))
        add("signature over another version", "signatureInvalid", make: signedOver(kind.message(sha256: sha, version: 2)))
        add("signature over the \(other.rawValue) message", "signatureInvalid", ci: true, make: signedOver(other.message(sha256: sha, version: version)))
        add("signature over the message with the version big-endian", "signatureInvalid", make: signedOver(sha + [0, 0, 0, 1] + (kind == .media ? kind.magic : [])))
        add("signature over another payload's hash", "signatureInvalid", make: signedOver(kind.message(sha256: writer.sodium.sha256([1, 2, 3]), version: version)))
        add("signature with S + L (non-canonical)", "signatureInvalid", ci: true) {
            var b = validFile
            // L = 2^252 + 27742317777372353535851937790883648493, little-endian.
            let l: [UInt8] = [0xED, 0xD3, 0xF5, 0x5C, 0x1A, 0x63, 0x12, 0x58, 0xD6, 0x9C, 0xF7, 0xA2, 0xDE, 0xF9, 0xDE, 0x14,
                              0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10]
            var carry = 0
            for i in 0..<32 {
                let sum = Int(b[76 + i]) + Int(l[i]) + carry
                b[76 + i] = UInt8(sum & 0xFF)
                carry = sum >> 8
            }
            return b
        }
        add("signature with the identity R and S = 0", "signatureInvalid") {
            var b = validFile
            for i in 44..<108 { b[i] = 0 }
            b[44] = 1
            return b
        }
        add("the trusted public key in place of the signature", "signatureInvalid") {
            var b = validFile
            b.replaceSubrange(44..<76, with: writer.trusted.publicKey)
            b.replaceSubrange(76..<108, with: writer.trusted.publicKey)
            return b
        }
        return cases
    }

    /// Cut at every section boundary of the envelope and the gzip payload, and at ±1; each cut
    /// both as is (the checksum fails) and re-signed (the decompressor or SQLite fails).
    func truncationCases(_ kind: StolKind) -> [HostileCase] {
        var cases: [HostileCase] = []
        let writer = self.writer
        // Small stored blocks give block boundaries to cut at.
        let body = kind == .database ? database : mediaDatabase
        let deflated = Deflate.stored(body, blockSize: 16384)
        let payload = Deflate.gzip(body, body: deflated)
        let file = writer.envelope(kind, version: 1, payload: payload)
        let n = file.count
        let gzipStart = 108
        var blockStarts: [Int] = []
        var offset = 0
        while offset < body.count { blockStarts.append(gzipStart + 10 + offset + 5 * blockStarts.count); offset += 16384 }
        let deflateEnd = gzipStart + 10 + deflated.count
        var boundaries: [Int] = [0, 1, 8, 12, 44, 108, gzipStart + 10, deflateEnd, deflateEnd + 4, n]
        boundaries += blockStarts.dropFirst()
        var cuts = Set<Int>()
        for b in boundaries { for d in -1...1 where b + d >= 0 && b + d < n { cuts.insert(b + d) } }
        let ciCuts: Set<Int> = [0, 1, 7, 107, 108, 109, gzipStart + 10, blockStarts.dropFirst().first ?? 0, deflateEnd, n - 4, n - 1]
        for cut in cuts.sorted() {
            let expected: String
            switch cut {
            case 0...107: expected = "notAStolFile"
            default: expected = "checksumMismatch"
            }
            cases.append(HostileCase(family: .truncation, kind: kind, name: "truncated to \(cut) of \(n) bytes", make: { .bytes(Array(file[0..<cut])) },
                                     expectedKind: expected, representative: ciCuts.contains(cut)))
            if cut >= 108 {
                cases.append(HostileCase(family: .truncation, kind: kind, name: "truncated to \(cut) of \(n) bytes, re-signed",
                                         make: { .bytes(writer.resign(kind, Array(file[0..<cut]))) }, expectedKind: "databaseCorrupt",
                                         representative: ciCuts.contains(cut)))
            }
        }
        cases.append(HostileCase(family: .truncation, kind: kind, name: "one byte appended", make: { .bytes(file + [0]) },
                                 expectedKind: "checksumMismatch", representative: true))
        return cases
    }

    /// A correctly signed envelope around a broken gzip payload, and the gzip bomb.
    func gzipCases(_ kind: StolKind) -> [HostileCase] {
        var cases: [HostileCase] = []
        let writer = self.writer
        let body = kind == .database ? database : mediaDatabase
        let good = Deflate.gzipStored(body)
        let crc = Deflate.le32(Deflate.crc32(body)), size = Deflate.le32(UInt32(body.count))
        func add(_ name: String, _ expected: String = "databaseCorrupt", _ fields: [String: JSONValue] = [:], ci: Bool = false, payload: @escaping @Sendable () -> [UInt8]) {
            cases.append(HostileCase(family: .gzip, kind: kind, name: name, make: { .bytes(writer.envelope(kind, version: 1, payload: payload())) },
                                     expectedKind: expected, fields: fields, representative: ci))
        }
        func patched(_ offset: Int, _ value: UInt8) -> @Sendable () -> [UInt8] { { var g = good; g[offset] = value; return g } }
        add("gzip ID1 wrong", ci: true, payload: patched(0, 0x1E))
        add("gzip ID2 wrong", payload: patched(1, 0x8C))
        add("gzip method 7", ci: true, payload: patched(2, 7))
        add("gzip reserved flag bits", payload: patched(3, 0xE0))
        add("gzip FHCRC with a wrong header CRC", ci: true) { Deflate.gzipHeader.enumerated().map { $0 == 3 ? 0x02 : $1 } + [0x12, 0x34] + Array(good[10...]) }
        add("gzip FEXTRA longer than the payload") { Deflate.gzipHeader.enumerated().map { $0 == 3 ? 0x04 : $1 } + [0xFF, 0xFF, 1, 2, 3] }
        add("gzip FNAME never terminated") { Deflate.gzipHeader.enumerated().map { $0 == 3 ? 0x08 : $1 } + Array(repeating: 0x41, count: 100) }
        add("gzip header only") { Deflate.gzipHeader }
        add("empty payload", ci: true) { [] }
        add("deflate block type 3 (reserved)", ci: true) { Deflate.gzipHeader + [0x07] + Array(good[11...]) }
        add("stored block LEN/NLEN mismatch") { var g = good; g[13] ^= 0x01; return g }
        add("stored block longer than the payload") { Deflate.gzipHeader + [0x01, 0xFF, 0xFF, 0x00, 0x00] + Array(body.prefix(100)) }
        add("fixed block with an invalid distance code", ci: true) {
            var w = BitWriter()
            w.bits(1, 1); w.bits(1, 2)
            Deflate.literal(&w, 0x41); Deflate.literal(&w, 257); w.huffman(30, 5)
            return Deflate.gzipHeader + w.finish() + crc + size
        }
        add("fixed block with a distance too far back", ci: true) {
            var w = BitWriter()
            w.bits(1, 1); w.bits(1, 2)
            Deflate.literal(&w, 0x41); Deflate.literal(&w, 257); w.huffman(4, 5); w.bits(0, 1)
            return Deflate.gzipHeader + w.finish() + crc + size
        }
        add("fixed block with literal/length code 286") {
            var w = BitWriter()
            w.bits(1, 1); w.bits(1, 2)
            Deflate.literal(&w, 286)
            return Deflate.gzipHeader + w.finish() + crc + size
        }
        add("no final block") {
            var w = BitWriter()
            Deflate.fixedBlock(&w, Array(body.prefix(4096)), final: false)
            return Deflate.gzipHeader + w.finish()
        }
        add("CRC-32 wrong", ci: true) { var g = good; g[g.count - 8] ^= 0x01; return g }
        add("ISIZE wrong", ci: true) { var g = good; g[g.count - 4] ^= 0x01; return g }
        add("ISIZE zero") { var g = good; for i in g.count - 4..<g.count { g[i] = 0 }; return g }
        add("trailer missing") { Array(good.dropLast(8)) }
        add("Huffman-coded body with one bit flipped", ci: true) {
            var g = Deflate.gzipFixed(body)
            g[g.count / 2] ^= 0x10
            return g
        }
        add("trailing garbage after the member", ci: true) { good + Array("garbage".utf8) }
        add("trailing zero bytes after the member") { good + [0, 0, 0, 0] }
        add("a second member that is cut short") { good + Array(good.prefix(20)) }
        add("an empty member alone") { Deflate.gzipStored([]) }
        // The bomb: zeros deflated about 160 times, over the limit the engine runs with.
        let limit = Self.importLimit
        let tooLarge: [String: JSONValue] = ["limit": .integer(limit)]
        add("gzip bomb: 8 MiB of zeros", "decompressedTooLarge", tooLarge, ci: true) {
            Deflate.gzipFixed([UInt8](repeating: 0, count: 8 << 20))
        }
        add("gzip bomb with a corrupt tail", "decompressedTooLarge", tooLarge) {
            Array(Deflate.gzipFixed([UInt8](repeating: 0, count: 4 << 20)).dropLast(12)) + [0xFF, 0xFF, 0xFF, 0xFF]
        }
        add("gzip bomb in a second member", "decompressedTooLarge", tooLarge, ci: true) {
            good + Deflate.gzipFixed([UInt8](repeating: 0, count: 2 << 20))
        }
        add("exactly the limit of zeros (not SQLite)", "databaseCorrupt") { Deflate.gzipFixed([UInt8](repeating: 0, count: limit)) }
        add("the limit plus one byte", "decompressedTooLarge", tooLarge, ci: true) { Deflate.gzipFixed([UInt8](repeating: 0, count: limit + 1)) }
        return cases
    }

    /// A correctly signed envelope around a hostile SQLite file.
    func sqliteCases(_ kind: StolKind) -> [HostileCase] {
        var cases: [HostileCase] = []
        let writer = self.writer
        let base = kind == .database ? databaseURL : mediaURL
        let baseBytes = kind == .database ? database : mediaDatabase
        func add(_ name: String, _ expected: String = "databaseCorrupt", _ fields: [String: JSONValue] = [:], version: UInt32 = 1, ci: Bool = false,
                 _ body: @escaping @Sendable () throws -> [UInt8]) {
            cases.append(HostileCase(family: .sqlite, kind: kind, name: name,
                                     make: { .bytes(writer.envelope(kind, version: version, payload: Deflate.gzipStored(try body()))) },
                                     expectedKind: expected, fields: fields, representative: ci))
        }
        func sql(_ name: String, expect expected: String = "databaseCorrupt", fields: [String: JSONValue] = [:], version: UInt32 = 1, ci: Bool = false, _ statements: String) {
            add(name, expected, fields, version: version, ci: ci) { try self.variant(of: base, sql: statements) }
        }
        func header(_ name: String, ci: Bool = false, _ patch: @escaping @Sendable (inout [UInt8]) -> Void) {
            add(name, ci: ci) { var b = baseBytes; patch(&b); return b }
        }
        let pageSize = Self.bigEndian(baseBytes, 16, width: 2)
        let pages = Self.bigEndian(baseBytes, 28)

        // Not SQLite at all.
        add("random bytes", ci: true) { Self.random(65536, seed: 11) }
        add("text") { Array("CREATE TABLE taxa(id); -- not a database\n".utf8) }
        add("4096 zero bytes") { [UInt8](repeating: 0, count: 4096) }
        add("the SQLite header alone (100 bytes)") { Array(baseBytes.prefix(100)) }
        add("an empty (0-page) database", ci: true) { [] }
        add("an empty 1-page database", kind == .database ? "incompatibleSchema" : "databaseCorrupt", ci: true) { try self.variant(of: base, sql: "DROP TABLE IF EXISTS images; DROP TABLE IF EXISTS media_info; " + (kind == .database ? Self.dropAllTaxonomy : "") + "VACUUM;") }

        // The 100-byte header.
        header("header magic changed", ci: true) { $0[0] ^= 0x20 }
        for size: UInt32 in [0, 1, 3, 256, 512, 0x8000, 0x8001, 0xFFFF] where Int(size) != pageSize {
            header("page size field \(size)", ci: size == 1 || size == 3) { Self.setBigEndian(&$0, 16, size, width: 2) }
        }
        header("reserved bytes per page 255") { $0[20] = 255 }
        header("max payload fraction 65", ci: false) { $0[21] = 65 }
        header("read version 3") { $0[19] = 3 }
        header("WAL mode (file format bytes 2, 2)", ci: true) { $0[18] = 2; $0[19] = 2 }
        header("write version 2 only (WAL)") { $0[18] = 2 }
        header("schema format 5", ci: true) { Self.setBigEndian(&$0, 44, 5) }
        for count in Set([1, pages - 1, pages + 1, 0xFFFF_FFFF]) {
            header("page count field \(count) (file has \(pages))", ci: count == pages + 1) { Self.setBigEndian(&$0, 28, UInt32(truncatingIfNeeded: count)) }
        }
        header("first freelist trunk page 999999") { Self.setBigEndian(&$0, 32, 999_999) }
        header("freelist count 7 with no freelist", ci: true) { Self.setBigEndian(&$0, 36, 7) }
        for keep in Set([1, pages / 2, pages - 1]) where keep >= 1 {
            add("truncated to \(keep) of \(pages) pages", ci: keep == pages / 2) { Array(baseBytes.prefix(keep * pageSize)) }
        }

        // The schema.
        let table = kind == .database ? "taxa" : "images"
        sql("sqlite_master row with broken SQL", ci: true, "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = 'CREATE TABLE \(table)(' WHERE name = '\(table)';")
        sql("sqlite_master row with a wrong root page", "PRAGMA writable_schema = ON; UPDATE sqlite_master SET rootpage = 99999 WHERE name = '\(table)';")
        sql("sqlite_master row of an unknown type", "PRAGMA writable_schema = ON; INSERT INTO sqlite_master VALUES ('gadget', 'g', 'g', 0, 'CREATE GADGET g');")
        sql("two definitions of one table", "PRAGMA writable_schema = ON; INSERT INTO sqlite_master SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master WHERE name = '\(table)';")
        // A schema that is not the format's is incompatibleSchema, with a detail naming the object.
        let schema = "incompatibleSchema"
        sql("a trigger", expect: schema, ci: true, "CREATE TRIGGER hostile AFTER INSERT ON \(table) BEGIN DELETE FROM \(table); END;")
        sql("a view", expect: schema, ci: true, "CREATE VIEW hostile AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r;")
        // A media pack's required tables are looked up before the schema is compared.
        sql("a view in place of a required table", expect: kind == .database ? schema : "databaseCorrupt", kind == .database
            ? "DROP TABLE names; CREATE VIEW names AS SELECT id, id AS taxon_id, scientific_name AS name, 'en' AS lang, 'common' AS name_type, 0 AS is_preferred FROM taxa;"
            : "DROP TABLE images; CREATE VIEW images AS SELECT 1 AS id, 1 AS taxon_id, 'image/png' AS mime_type, 1 AS width, 1 AS height, '' AS credit, '' AS license, x'00' AS bytes;")
        sql("an extra table", expect: schema, ci: true, "CREATE TABLE hostile_extra(x); INSERT INTO hostile_extra VALUES (1);")
        sql("an extra index on an expression", expect: schema, "CREATE INDEX hostile_index ON \(table)(abs(id) + 1);")
        sql("a required index replaced by an expression index", expect: schema, ci: kind == .media, kind == .database
            ? "DROP INDEX idx_taxa_rank; CREATE INDEX idx_taxa_rank ON taxa(length(rank) * 2);"
            : "DROP INDEX idx_images_taxon; CREATE INDEX idx_images_taxon ON images(taxon_id * 2);")
        sql("a generated column", expect: schema, ci: true, "ALTER TABLE \(table) ADD COLUMN hostile_generated INTEGER GENERATED ALWAYS AS (id * 2) VIRTUAL;")
        if kind == .database {
            // The specification's tables are required; an engine extension is all or nothing
            // (`search_names` without `fts_words`, or the reverse, is a near miss).
            for missing in ["schema_version", "taxa", "names", "refs", "traits", "euler_tour", "first_occurrence", "top_n_relatives", "search_names"] {
                sql("missing table \(missing)", expect: schema, ci: missing == "names" || missing == "schema_version", "DROP TABLE \(missing);")
            }
            for missing in ["fts_taxa", "fts_words", "fts_word_trigrams"] { sql("missing virtual table \(missing)", expect: schema, "DROP TABLE \(missing);") }
            // The trigram index earlier builds wrote is accepted only complete and unchanged.
            sql("half of the retired trigram index (fts_trigram without fts_trigram_vocab)", expect: schema,
                fields: ["detail": "the retired trigram index of earlier builds is incomplete: it has fts_trigram but not fts_trigram_vocab"],
                "CREATE VIRTUAL TABLE fts_trigram USING fts5(\n padded,\n content = '',\n tokenize = 'trigram'\n);")
            sql("a retired trigram index that differs from the one earlier builds wrote", expect: schema,
                "CREATE VIRTUAL TABLE fts_trigram USING fts5(padded, hostile, content = '', tokenize = 'trigram'); CREATE VIRTUAL TABLE fts_trigram_vocab USING fts5vocab('fts_trigram', 'row');")
            sql("missing index idx_taxa_parent (the specification's)", expect: schema, "DROP INDEX idx_taxa_parent;")
            sql("missing index idx_taxa_parent_name (an extension's, the others there)", expect: schema, "DROP INDEX idx_taxa_parent_name;")
            // Near misses of the specification's tables.
            sql("a missing column (traits without unit)", expect: schema, fields: ["detail": "table traits lacks column unit"], ci: true, "ALTER TABLE traits DROP COLUMN unit;")
            sql("a renamed column (traits.trait_key as key)", expect: schema, fields: ["detail": .string("table traits lacks column trait_key" + ImportSchemaText.olderEngine)], ci: true, "ALTER TABLE traits RENAME COLUMN trait_key TO key;")
            sql("an extra column (taxa.hostile)", expect: schema, fields: ["detail": "table taxa has column hostile, which the schema does not have"], "ALTER TABLE taxa ADD COLUMN hostile TEXT;")
            sql("a column that may be NULL (names.name)", expect: schema,
                "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = replace(sql, 'name        TEXT    NOT NULL', 'name        TEXT') WHERE name = 'names';")
            // The content extensions: exactly as the schema has them, or absent.
            sql("descriptions with a renamed column (text as body)", expect: schema, fields: ["detail": "table descriptions lacks column text"], ci: true,
                "ALTER TABLE descriptions RENAME COLUMN text TO body;")
            sql("descriptions with an extra column", expect: schema, fields: ["detail": "table descriptions has column hostile, which the schema does not have"],
                "ALTER TABLE descriptions ADD COLUMN hostile TEXT;")
            sql("name_sources without its source column", expect: schema, fields: ["detail": "table name_sources lacks column source"], "ALTER TABLE name_sources DROP COLUMN source;")
            sql("an extra table named like an extension (search_names_extra)", expect: schema, fields: ["detail": "unexpected table search_names_extra (not in the schema)"], "CREATE TABLE search_names_extra(id INTEGER PRIMARY KEY);")
            sql("schema_version 0", ci: true, "UPDATE schema_version SET version = 0;")
            sql("schema_version -1", "UPDATE schema_version SET version = -1;")
            sql("schema_version 'abc'", "UPDATE schema_version SET version = 'abc';")
            sql("schema_version table empty", ci: true, "DELETE FROM schema_version;")
            sql("schema_version 2 under a header saying 1", expect: "incompatibleSchema", fields: ["found": 2, "expected": 1], ci: true, "UPDATE schema_version SET version = 2;")
            sql("schema_version 2 under a header saying 2", expect: "incompatibleSchema", fields: ["found": 2, "expected": 1], version: 2, "UPDATE schema_version SET version = 2;")
            sql("schema_version 2^40", expect: "incompatibleSchema", fields: ["found": .integer(1 << 40), "expected": 1], "UPDATE schema_version SET version = 1099511627776;")
            add("a media pack database", schema, ci: true) { self.mediaDatabase }
        } else {
            for missing in ["media_info", "images"] { sql("missing table \(missing)", ci: missing == "images", "DROP TABLE \(missing);") }
            sql("missing index idx_images_taxon", expect: schema, "DROP INDEX idx_images_taxon;")
            sql("no format_version", ci: true, "DELETE FROM media_info WHERE key = 'format_version';")
            sql("format_version 'abc'", "UPDATE media_info SET value = 'abc' WHERE key = 'format_version';")
            sql("format_version 0", "UPDATE media_info SET value = '0' WHERE key = 'format_version';")
            sql("format_version 2", expect: "incompatibleSchema", fields: ["found": 2, "expected": 1], ci: true, "UPDATE media_info SET value = '2' WHERE key = 'format_version';")
            for id in ["../escape", "/etc/passwd", ".hidden", "", "a b", String(repeating: "x", count: 101), "nul\u{1}"] {
                let quoted = id.replacingOccurrences(of: "'", with: "''")
                sql("pack id \(id.count > 20 ? "of \(id.count) characters" : "'\(id)'")", ci: id == "../escape", "UPDATE media_info SET value = '\(quoted)' WHERE key = 'id';")
            }
            sql("no pack id", "DELETE FROM media_info WHERE key = 'id';")
            sql("image width as text", ci: true, "UPDATE images SET width = 'wide';")
            sql("image MIME type as a blob", ci: true, "UPDATE images SET mime_type = x'696d616765';")
            sql("image bytes as an integer", "UPDATE images SET bytes = 7;")
            sql("image taxon id as a real", "UPDATE images SET taxon_id = taxon_id + 0.5;")
            sql("media_info value as a blob", "UPDATE media_info SET value = x'4e616d65' WHERE key = 'name';")
            add("a taxonomy database", ci: true) { self.database }
        }
        // An index page that no longer matches its table: only integrity_check sees it.
        let index = kind == .database ? "idx_taxa_rank" : "idx_images_taxon"
        add("index page corrupted (last cell byte)", ci: true) { try self.corruptIndex(base, index) { page, size in page[size - 1] ^= 0x7F } }
        add("index page type byte zeroed") { try self.corruptIndex(base, index) { page, _ in page[0] = 0 } }
        return cases
    }

    /// The engine's hint for a table in the layout of its builds before schema v1 followed the specification.
    enum ImportSchemaText {
        static let olderEngine = " (the layout of databases built by stol-engine before schema v1 followed the specification; rebuild it with `stol-engine build-db` and pack it again)"
    }

    /// Removes every engine extension (`SchemaExtensions`), leaving the specification's schema.
    static let dropExtensions = "DROP TABLE fts_word_trigrams; DROP TABLE fts_words; DROP TABLE search_names; DROP TABLE dataset_info; " +
        "DROP TABLE descriptions; DROP TABLE name_sources; DROP TABLE name_heads; DROP TABLE taxon_prominence; " +
        "DROP INDEX idx_taxa_parent_name; DROP INDEX idx_taxa_scientific_name; DROP INDEX idx_names_taxon_lang; DROP INDEX idx_names_name; " +
        "ALTER TABLE taxa DROP COLUMN child_count; "

    static let dropAllTaxonomy = "DROP TABLE IF EXISTS fts_word_trigrams; DROP TABLE IF EXISTS fts_words; DROP TABLE IF EXISTS fts_taxa; " +
        ["schema_version", "dataset_info", "descriptions", "name_sources", "taxa", "names", "refs", "traits", "euler_tour", "first_occurrence", "top_n_relatives",
         "search_names", "name_heads", "taxon_prominence", "sqlite_stat1"]
        .map { "DROP TABLE IF EXISTS \($0); " }.joined()

    /// `base` with `patch` applied to the root page of `index` (a leaf in these small files).
    func corruptIndex(_ base: URL, _ index: String, _ patch: (inout [UInt8], Int) -> Void) throws -> [UInt8] {
        var bytes = Array(try Data(contentsOf: base))
        let root = try Int(SQLiteCLI.run(base, "SELECT rootpage FROM sqlite_master WHERE name = '\(index)'", readOnly: true).first ?? "") ?? 0
        let size = Self.bigEndian(bytes, 16, width: 2)
        guard root > 1 else { throw Fixtures.FixtureError(message: "no root page for \(index)") }
        var page = Array(bytes[(root - 1) * size..<root * size])
        patch(&page, size)
        bytes.replaceSubrange((root - 1) * size..<root * size, with: page)
        return bytes
    }

    /// Paths that are not regular readable files, and sizes over the 2 GiB limit.
    func pathCases(_ kind: StolKind) -> [HostileCase] {
        let validFile = valid(kind)
        let limit: Int64 = 2 << 30
        var cases: [HostileCase] = []
        func add(_ name: String, _ expected: String, _ input: HostileCase.Input, fields: [String: JSONValue] = [:], ci: Bool = true) {
            cases.append(HostileCase(family: .paths, kind: kind, name: name, make: { input }, expectedKind: expected, fields: fields, representative: ci))
        }
        add("a missing path", "fileUnreadable", .missing)
        add("a directory", "fileUnreadable", .directory)
        add("a named pipe (FIFO) nobody writes to", "fileUnreadable", .fifo)
        add("a symlink loop", "fileUnreadable", .symlinkLoop)
        add("/dev/zero", "fileUnreadable", .device("/dev/zero"))
        add("/dev/null", "fileUnreadable", .device("/dev/null"), ci: false)
        add("a path through a regular file (file.stol/x)", "fileUnreadable", .throughAFile(validFile), ci: false)
        add("a file name over NAME_MAX", "fileUnreadable", .longName, ci: false)
        add("a file with mode 000", "fileUnreadable", .unreadable(validFile))
        add("a sparse file of 2 GiB + 1 byte", "fileTooLarge", .sparse(limit + 1), fields: ["size": .integer(Int(limit) + 1), "limit": .integer(Int(limit))])
        add("a sparse file of 1 TiB", "fileTooLarge", .sparse(1 << 40), fields: ["size": .integer(1 << 40), "limit": .integer(Int(limit))], ci: false)
        add("an empty file", "notAStolFile", .bytes([]))
        add("a one-byte file", "notAStolFile", .bytes([0x53]))
        return cases
    }

    func all(_ kind: StolKind) -> [HostileCase] {
        envelopeCases(kind) + truncationCases(kind) + gzipCases(kind) + sqliteCases(kind) + pathCases(kind)
    }

    /// Writes `input` under `directory`; nil when this platform or user cannot make it (chmod
    /// 000 does not stop root). Returns the path to import.
    static func materialize(_ input: HostileCase.Input, in directory: URL, name: String) throws -> String? {
        let url = directory.appendingPathComponent(name)
        switch input {
        case .bytes(let bytes):
            try Data(bytes).write(to: url)
        case .missing:
            break
        case .directory:
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        case .fifo:
            guard mkfifo(url.path, 0o644) == 0 else { throw Fixtures.FixtureError(message: "mkfifo: \(errno)") }
        case .symlinkLoop:
            let other = directory.appendingPathComponent(name + ".other")
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: other.path)
            try FileManager.default.createSymbolicLink(atPath: other.path, withDestinationPath: url.path)
        case .unreadable(let bytes):
            try Data(bytes).write(to: url)
            chmod(url.path, 0)
            if geteuid() == 0 || access(url.path, R_OK) == 0 { return nil }
        case .sparse(let size):
            guard FileManager.default.createFile(atPath: url.path, contents: nil), truncate(url.path, off_t(size)) == 0 else { return nil }
        case .device(let path):
            return path
        case .throughAFile(let bytes):
            try Data(bytes).write(to: url)
            return url.path + "/x"
        case .longName:
            return directory.appendingPathComponent(String(repeating: "n", count: 300) + ".stol").path
        }
        return url.path
    }
}

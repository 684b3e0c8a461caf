import Foundation
import GRDB

/// The SQLite database inside a media pack (format version 1):
///
/// ```
/// media_info(key TEXT PRIMARY KEY, value TEXT)   -- format_version, id, name, version
/// images(id INTEGER PRIMARY KEY, taxon_id INTEGER, mime_type TEXT, width INTEGER,
///        height INTEGER, credit TEXT, license TEXT, bytes BLOB)
/// ```
public enum MediaPackSchema {
    public static let currentVersion = 1

    package static let createSQL = """
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

    /// The pack's `format_version`; throws `databaseCorrupt` when it is not a media pack.
    static func formatVersion(_ db: Database) throws -> Int {
        guard try db.tableExists("media_info"), try db.tableExists("images") else {
            throw ReferenceError.databaseCorrupt("not a stol media pack (no media_info or images table)")
        }
        guard let text = try String.fetchOne(db, sql: "SELECT value FROM media_info WHERE key = 'format_version'"), let version = Int(text) else {
            throw ReferenceError.databaseCorrupt("the media pack has no format_version")
        }
        return version
    }

    /// Refuses values the readers would fail to decode (a text width, a blob MIME type…): column
    /// affinity does not stop them, and `media/image` must never meet one.
    static func checkValueTypes(_ db: Database) throws {
        let images = try Int.fetchOne(db, sql: """
            SELECT count(*) FROM images WHERE typeof(taxon_id) != 'integer' OR typeof(mime_type) != 'text'
                OR typeof(width) != 'integer' OR typeof(height) != 'integer' OR typeof(credit) != 'text'
                OR typeof(license) != 'text' OR typeof(bytes) != 'blob'
            """) ?? 0
        let info = try Int.fetchOne(db, sql: "SELECT count(*) FROM media_info WHERE typeof(key) != 'text' OR typeof(value) != 'text'") ?? 0
        guard images == 0, info == 0 else {
            throw ReferenceError.databaseCorrupt("\(images) images and \(info) media_info rows hold values of the wrong type")
        }
    }

    /// Pack ids name files: letters, digits, `.`, `_`, `-`; not starting with `.`; at most 100.
    public static func isValidPackID(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= 100, !id.hasPrefix("."), id != "..", id != "." else { return false }
        return id.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E || c == 0x5F || c == 0x2D
        }
    }
}

/// Width, height and MIME type from a PNG or JPEG file's header.
public enum ImageHeader {
    public struct Info: Sendable, Equatable {
        public var mimeType: String
        public var width: Int
        public var height: Int
    }

    public static func read(_ bytes: [UInt8]) -> Info? {
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), Array(bytes[12..<16]) == Array("IHDR".utf8) {
            return Info(mimeType: "image/png", width: bigEndian(bytes, 16, 4), height: bigEndian(bytes, 20, 4))
        }
        if bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 {
            var i = 2
            while i + 9 < bytes.count {
                guard bytes[i] == 0xFF else { return nil }
                let marker = bytes[i + 1]
                if marker == 0xFF { i += 1; continue }
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
                let length = bigEndian(bytes, i + 2, 2)
                // SOF0…SOF15, except DHT (C4), JPG (C8) and DAC (CC).
                if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return Info(mimeType: "image/jpeg", width: bigEndian(bytes, i + 7, 2), height: bigEndian(bytes, i + 5, 2))
                }
                i += 2 + length
            }
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        (0..<count).reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
    }
}

import Foundation
import GRDB
import STOLEngine

/// Builds a `.stolmedia` file: images and their manifest into a SQLite database, then packed and
/// signed like a `.stol` (see `StolPacker`).
public enum MediaPackBuilder {
    public struct Entry: Sendable {
        public var file: String
        public var taxonID: Int64
        public var credit: String
        public var license: String

        public init(file: String, taxonID: Int64, credit: String, license: String) {
            self.file = file
            self.taxonID = taxonID
            self.credit = credit
            self.license = license
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads the manifest CSV: `file,taxonId,credit,license` (a header row with those names is skipped;
    /// fields may be double-quoted, with `""` for a quote).
    public static func readManifest(_ url: URL) throws -> [Entry] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var entries: [Entry] = []
        for (number, row) in parseCSV(text).enumerated() where !(row.count == 1 && row[0].isEmpty) {
            if number == 0, row.first?.lowercased() == "file" { continue }
            guard row.count == 4 else { throw Failure("\(url.lastPathComponent) row \(number + 1): expected 4 fields (file,taxonId,credit,license), got \(row.count)") }
            guard let id = Int64(row[1].trimmingCharacters(in: .whitespaces)), id > 0, id < (1 << 53) else {
                throw Failure("\(url.lastPathComponent) row \(number + 1): taxonId must be a positive integer")
            }
            entries.append(Entry(file: row[0], taxonID: id, credit: row[2], license: row[3]))
        }
        return entries
    }

    static func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = ""
        var quoted = false, iterator = Array(text.replacingOccurrences(of: "\r\n", with: "\n")).makeIterator()
        var pending: Character? = nil
        while let c = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    let next = iterator.next()
                    if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                } else { field.append(c) }
            } else if c == "\"" && field.isEmpty {
                quoted = true
            } else if c == "," {
                row.append(field); field = ""
            } else if c == "\n" {
                row.append(field); rows.append(row); row = []; field = ""
            } else { field.append(c) }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }

    /// Writes the pack's database to `database` (replaced if it exists).
    public static func buildDatabase(images: URL, entries: [Entry], id: String, name: String, version: String, to database: URL) throws {
        guard MediaPackSchema.isValidPackID(id) else { throw Failure("--id must be letters, digits, '.', '_' or '-', not starting with '.'") }
        guard !entries.isEmpty else { throw Failure("the manifest lists no images") }
        try? FileManager.default.removeItem(at: database)
        let queue = try DatabaseQueue(path: database.path)
        try queue.write { db in
            try db.execute(sql: MediaPackSchema.createSQL)
            for (key, value) in [("format_version", "\(MediaPackSchema.currentVersion)"), ("id", id), ("name", name), ("version", version)] {
                try db.execute(sql: "INSERT INTO media_info(key, value) VALUES (?, ?)", arguments: [key, value])
            }
            for entry in entries {
                let url = images.appendingPathComponent(entry.file)
                guard let data = FileManager.default.contents(atPath: url.path) else { throw Failure("cannot read \(entry.file)") }
                guard let info = ImageHeader.read(Array(data)) else { throw Failure("\(entry.file) is not a PNG or JPEG image") }
                try db.execute(
                    sql: "INSERT INTO images(taxon_id, mime_type, width, height, credit, license, bytes) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [entry.taxonID, info.mimeType, info.width, info.height, entry.credit, entry.license, data])
            }
        }
        try queue.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
        try queue.close()
    }

    /// Builds and signs `out` (written atomically); returns the header.
    @discardableResult
    public static func pack(images: URL, manifest: URL, id: String, name: String, version: String, secretKey: [UInt8], to out: URL) throws -> StolFormat.Header {
        let entries = try readManifest(manifest)
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("stol-media-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: temp) }
        try buildDatabase(images: images, entries: entries, id: id, name: name, version: version, to: temp)
        return try StolPacker.pack(database: temp, secretKey: secretKey, schemaVersion: UInt32(MediaPackSchema.currentVersion), to: out, kind: .media)
    }
}

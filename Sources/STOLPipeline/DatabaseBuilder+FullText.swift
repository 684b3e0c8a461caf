import Foundation
import GRDB
import STOLEngine
import STOLSupport

extension DatabaseBuilder {
    /// The full-text tables, `fts_taxa` and the word vocabulary `fts_words`, built in a database
    /// of their own on a thread of their own while the writer fills the other tables; then their
    /// shadow tables (FTS5 keeps everything in ordinary tables) are copied into the output.
    ///
    /// Full-text work is a quarter of rows and search index together (NCBI: 7 of 31 s) and needs
    /// nothing the writer writes: the taxa and their names are in memory. The side database gets
    /// the same rows in the same order and the same `optimize`, so the output is byte for byte
    /// what one connection wrote. The side file sits beside the output and is removed whatever
    /// happens.
    final class FullTextBuild: @unchecked Sendable {
        /// The side database's file.
        let url: URL
        private let finished = DispatchSemaphore(value: 0)
        private let outcome = Locked<Result<Void, any Error>?>(nil)
        private let stopped = Locked(false)
        private var joined = false

        /// Starts building, for the taxa at `order` (indexes into `taxa`, by id), from the virtual
        /// tables' definitions `definitions` (their `CREATE VIRTUAL TABLE` statements).
        init(beside output: URL, definitions: [String], taxa: [SourceTaxon], ids: [Int64], order: [Int]) {
            url = output.deletingLastPathComponent().appendingPathComponent(output.lastPathComponent + ".fulltext")
            let path = url.path, stopped = self.stopped, outcome = self.outcome, finished = self.finished
            Self.removeFiles(path)
            let thread = Thread {
                let result = Result {
                    try Self.build(path: path, definitions: definitions, taxa: taxa, ids: ids, order: order) { stopped.withLock { $0 } }
                }
                outcome.withLock { $0 = result }
                finished.signal()
            }
            thread.name = "full-text build"
            thread.start()
        }

        deinit {
            stop()
            Self.removeFiles(url.path)
        }

        /// Waits for the side build, then copies its shadow tables over the output's (whose
        /// virtual tables are still empty), outside any transaction (ATTACH needs that), and
        /// removes the side file. Throws the side build's error.
        func copy(into db: Database) throws {
            join()
            defer { Self.removeFiles(url.path) }
            try outcome.withLock { $0 }!.get()
            try db.execute(sql: "ATTACH DATABASE ? AS fulltext", arguments: [url.path])
            do {
                let shadows = try String.fetchAll(db, sql: """
                    SELECT name FROM fulltext.sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name
                    """)
                let present = Set(try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE type = 'table'"))
                try db.inTransaction {
                    for table in shadows {
                        guard present.contains(table) else { throw SourceIssue("full-text table \(table) has no counterpart in the output", at: nil) }
                        let name = table.quotedDatabaseIdentifier
                        try db.execute(sql: "DELETE FROM main.\(name); INSERT INTO main.\(name) SELECT * FROM fulltext.\(name)")
                    }
                    return .commit
                }
            } catch {
                try? db.execute(sql: "DETACH DATABASE fulltext")
                throw error
            }
            try db.execute(sql: "DETACH DATABASE fulltext")
        }

        /// Asks the side build to stop at its next taxon and waits for it.
        func stop() {
            stopped.withLock { $0 = true }
            join()
        }

        private func join() {
            guard !joined else { return }
            finished.wait()
            joined = true
        }

        private static func removeFiles(_ path: String) {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }

        /// The side build itself: the virtual tables, every taxon's row, `optimize`, then the
        /// vocabulary of its words.
        private static func build(path: String, definitions: [String], taxa: [SourceTaxon], ids: [Int64], order: [Int], stopped: () -> Bool) throws {
            var config = Configuration()
            config.journalMode = .default
            let queue = try DatabaseQueue(path: path, configuration: config)
            defer { try? queue.close() }
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;")
            }
            try queue.write { db in
                for definition in definitions { try db.execute(sql: definition) }
                // Row by row: SQLite runs a multi-row insert into a virtual table in a statement
                // savepoint whatever its conflict clause, and FTS5 writes out its pending terms at each.
                let insert = try BulkStatement(db, "INSERT INTO fts_taxa(rowid, taxon_id, scientific_name, common_names, synonyms) VALUES (?,?,?,?,?)")
                for (step, i) in order.enumerated() {
                    if step % 4_096 == 0, stopped() { throw CancellationError() }
                    let t = taxa[i]
                    let names = t.names.isEmpty ? [] : DatabaseBuilder.normalisedNames(t.names)
                    let (commons, synonyms) = DatabaseBuilder.joinedNames(names)
                    try insert.insert(.int(ids[i]), .int(ids[i]), .text(t.scientificName), .text(commons), .text(synonyms))
                }
                try db.execute(sql: "INSERT INTO fts_taxa(fts_taxa) VALUES ('optimize')")
                try SchemaExtensions.fillWordVocabulary(db, source: "main")
            }
        }
    }
}

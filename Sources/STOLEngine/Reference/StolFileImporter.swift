import CZlib
import Foundation
import GRDB
import STOLProtocol
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import STOLSupport

/// Checks a `.stol` file stage by stage and stages its database in a temporary directory.
/// Synchronous and blocking: callers run it off the cooperative pool.
public struct StolFileImporter: Sendable {
    public struct Limits: Sendable {
        public var maxFileBytes: Int64 = 2 << 30
        public var maxDecompressedBytes: Int64 = 4 << 30
        public init() {}
    }

    /// A validated database waiting in the temporary directory.
    public struct Staged: Sendable {
        public var stolCopy: URL
        public var database: URL
        public var schemaVersion: Int
        public var signedBy: [UInt8]
        /// Whether the file's planner statistics are exactly what `ANALYZE` writes for its data
        /// (`PlannerStatistics`); when not, an import recomputes them.
        public var statisticsAreOwn: Bool = true
    }

    /// One step's progress, for the import's progress reports and for `stol-engine verify`: the
    /// message is an `ImportStep` (the protocol's words, which clients read back).
    public typealias Report = @Sendable (_ fraction: Double, _ message: String) -> Void

    /// Where staged files are written: a folder of the engine's own inside the data directory.
    public let scratch: ScratchDirectory
    public let trustedKeys: [[UInt8]]
    public let limits: Limits
    /// A taxonomy database (`.stol`) or a media pack (`.stolmedia`): the magic, the signed
    /// message and the schema check differ; every other stage is shared.
    public let kind: StolFormat.Kind
    /// Whether a verified taxonomy database is made ready to serve in the staged copy (an
    /// import): the engine extensions it lacks are built, and its planner statistics replaced by
    /// the engine's own (`ANALYZE`); `stol-engine verify` only checks.
    public let preparesCopy: Bool
    static let chunkSize = 1 << 20
    /// The page cache of each of the integrity check's two connections: 16 MB. Its passes read
    /// each b-tree in order, so a larger cache would mostly hold pages already read.
    static let checkCache = "PRAGMA cache_size = -16384;"

    public init(scratch: ScratchDirectory, trustedKeys: [[UInt8]], limits: Limits, kind: StolFormat.Kind = .database, preparesCopy: Bool = true) {
        self.scratch = scratch
        self.trustedKeys = trustedKeys
        self.limits = limits
        self.kind = kind
        self.preparesCopy = preparesCopy
    }

    /// Runs every stage up to the integrity check. On any failure the temporary files are gone.
    /// Stages `source` off the cooperative thread pool (`OffPool`); cancelling the calling task
    /// cancels `job`.
    public func stage(_ source: URL, job: ImportJob, report: @escaping Report) async -> Result<Staged, ReferenceError> {
        await withTaskCancellationHandler {
            // `stage` reports its failures in the Result; the closure itself never throws.
            (try? await OffPool.run { Result { () throws(ReferenceError) in try self.stage(source, job: job, report: report) } })
                ?? .failure(.importFailed("the import could not be started"))
        } onCancel: {
            job.cancel()
        }
    }

    public func stage(_ source: URL, job: ImportJob, report: @escaping Report) throws(ReferenceError) -> Staged {
        let temporaryDirectory: URL
        do { temporaryDirectory = try scratch.url() } catch { throw .importFailed("\(error)") }
        let id = UUID().uuidString
        let copy = temporaryDirectory.appendingPathComponent("import-\(id).stol")
        let database = temporaryDirectory.appendingPathComponent("import-\(id).sqlite")
        do {
            let staged = try run(source, copy: copy, database: database, job: job, report: report)
            if kind == .database, preparesCopy { try prepareForServing(staged, job: job, report: report) }
            return staged
        } catch {
            unlink(copy.path)
            unlink(database.path)
            throw error
        }
    }

    private func checkCancelled(_ job: ImportJob) throws(ReferenceError) {
        if job.isCancelled { throw .cancelled }
    }

    private func run(_ source: URL, copy: URL, database: URL, job: ImportJob, report: @escaping Report) throws(ReferenceError) -> Staged {
        // 1. Copy into the temporary directory (same filesystem as the destination).
        report(0, ImportStep.copying.rawValue)
        let input: RawFile
        do { input = try RawFile(reading: source) } catch { throw .fileUnreadable("\(source.path): \(error)") }
        guard let sourceSize = input.regularFileSize() else { throw .fileUnreadable("\(source.path) is not a regular file") }
        if sourceSize > limits.maxFileBytes { throw .fileTooLarge(size: sourceSize, limit: limits.maxFileBytes) }
        var copied: Int64 = 0
        do {
            let output = try RawFile(creating: copy)
            var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
            // At most the size fstat gave: a file that claims 0 bytes and then blocks on read
            // (/proc/kmsg) must not hold the import slot forever; growth after fstat is cut off
            // (the checksum then refuses it).
            while copied < sourceSize {
                try checkCancelled(job)
                let n: Int
                do { n = try input.read(into: &buffer, upTo: Int(min(Int64(buffer.count), sourceSize - copied))) } catch {
                    throw ReferenceError.fileUnreadable("\(error)")
                }
                if n == 0 { break }
                copied += Int64(n)
                if copied > limits.maxFileBytes { throw ReferenceError.fileTooLarge(size: copied, limit: limits.maxFileBytes) }
                do { try output.write(n == buffer.count ? buffer : Array(buffer[0..<n])) } catch { throw ReferenceError.importFailed("\(error)") }
                report(0.2 * Double(copied) / Double(max(sourceSize, 1)), ImportStep.copying.rawValue)
            }
        } catch let error as ReferenceError {
            throw error
        } catch {
            throw .importFailed("\(error)")
        }

        // 2. Size limits.
        report(0.2, ImportStep.checkingSize.rawValue)
        guard copied >= 1 else { throw .notAStolFile("the file is empty") }
        if copied > limits.maxFileBytes { throw .fileTooLarge(size: copied, limit: limits.maxFileBytes) }

        // 3. Magic and header.
        report(0.21, ImportStep.checkingHeader.rawValue)
        let file: RawFile
        do { file = try RawFile(reading: copy) } catch { throw .importFailed("\(error)") }
        var headerBytes = [UInt8](repeating: 0, count: StolFormat.headerSize)
        let headerRead: Int
        do { headerRead = try file.read(into: &headerBytes) } catch { throw .importFailed("\(error)") }
        let magic = kind.magic
        guard headerRead >= magic.count, Array(headerBytes[0..<magic.count]) == magic else {
            throw .notAStolFile("wrong magic bytes")
        }
        guard headerRead == StolFormat.headerSize, let header = StolFormat.parseHeader(headerBytes, kind: kind) else {
            throw .notAStolFile("the file ends inside the \(StolFormat.headerSize)-byte header")
        }
        let payloadSize = copied - Int64(StolFormat.headerSize)

        // 4. SHA-256 of the payload.
        report(0.22, ImportStep.verifyingChecksum.rawValue)
        var hasher = SHA256Hasher()
        var hashed: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            try checkCancelled(job)
            let n: Int
            do { n = try file.read(into: &buffer) } catch { throw .importFailed("\(error)") }
            if n == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            hashed += Int64(n)
            report(0.22 + 0.18 * Double(hashed) / Double(max(payloadSize, 1)), ImportStep.verifyingChecksum.rawValue)
        }
        guard hasher.finalize() == header.payloadSHA256 else { throw .checksumMismatch }

        // 5. Signature.
        report(0.4, ImportStep.verifyingSignature.rawValue)
        guard let key = trustedKeys.first(where: { Signing.verify(signature: header.signature, message: header.signedMessage, publicKey: $0) }) else {
            throw .signatureInvalid
        }

        // 6. Decompress, stopping the moment the limit is crossed.
        report(0.41, ImportStep.decompressing.rawValue)
        do { try file.seek(to: Int64(StolFormat.headerSize)) } catch { throw .importFailed("\(error)") }
        try inflate(file, payloadSize: payloadSize, to: database, job: job, report: report)

        // 7. Open read-only, defensively.
        try checkCancelled(job)
        report(0.8, ImportStep.openingDatabase.rawValue)
        try Self.checkJournalMode(database)
        let queue: DatabaseQueue
        var config = Configuration()
        config.readonly = true
        config.label = "stol.import"
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA trusted_schema = OFF; PRAGMA query_only = 1; PRAGMA cell_size_check = ON;")
        }
        do {
            queue = try DatabaseQueue(path: TaxonomyDatabase.immutableURI(database), configuration: config)
        } catch {
            throw .databaseCorrupt("cannot open: \(Self.describe(error))")
        }

        // 8. Schema version: the header's and the database's, both supported and equal.
        report(0.82, ImportStep.checkingSchemaVersion.rawValue)
        let stored: Int
        do {
            let kind = self.kind
            stored = try queue.read { db -> Int in
                switch kind {
                case .database:
                    guard try db.tableExists("schema_version"), try db.tableExists("taxa") else {
                        throw ReferenceError.schemaMismatch("not a stol taxonomy database (no schema_version or taxa table)")
                    }
                    return try Int.fetchOne(db, sql: "SELECT version FROM schema_version") ?? 0
                case .media:
                    return try MediaPackSchema.formatVersion(db)
                }
            }
        } catch let error as ReferenceError {
            throw error
        } catch {
            throw .databaseCorrupt(Self.describe(error))
        }
        let expected = kind == .database ? Schema.currentVersion : MediaPackSchema.currentVersion
        if Int(header.schemaVersion) > expected { throw .incompatibleSchema(found: Int(header.schemaVersion), expected: expected) }
        if stored > expected { throw .incompatibleSchema(found: stored, expected: expected) }
        guard stored >= 1 else { throw .databaseCorrupt("schema version \(stored)") }
        guard stored == Int(header.schemaVersion) else {
            throw .databaseCorrupt("the header says schema version \(header.schemaVersion), the database says \(stored)")
        }
        do {
            let kind = self.kind
            try queue.read { db in try ImportSchema.check(db, kind: kind) }
        } catch let error as ReferenceError {
            throw error
        } catch {
            throw .databaseCorrupt(Self.describe(error))
        }

        // 9. Integrity: what `integrity_check` checks, on two connections opened as defensively,
        //    its index digests keyed by a seed the file's maker cannot know; for a taxonomy
        //    database also every value as the engine will read it, the tree and the full-text
        //    indexes (`TaxonomyContentCheck`).
        try checkCancelled(job)
        report(0.84, ImportStep.checkingIntegrity.rawValue)
        let problems: [String]
        let statistics = PlannerStatistics()
        do {
            problems = try checkIntegrity(of: database, configuration: config, job: job, statistics: statistics) { report(0.84 + 0.06 * $0, ImportStep.checkingIntegrity.rawValue) }
        } catch {
            try checkCancelled(job)
            throw .databaseCorrupt(Self.describe(error))
        }
        guard problems.isEmpty else { throw .databaseCorrupt(problems.prefix(5).joined(separator: "; ")) }
        var statisticsAreOwn = true
        if kind == .database {
            do { statisticsAreOwn = try queue.read { db in try statistics.matches(db) } } catch {
                throw .databaseCorrupt(Self.describe(error))
            }
        }
        if kind == .media {
            do { try queue.read { db in try MediaPackSchema.checkValueTypes(db) } } catch let error as ReferenceError {
                throw error
            } catch {
                throw .databaseCorrupt(Self.describe(error))
            }
        }
        try checkCancelled(job)
        report(0.9, ImportStep.verified.rawValue)
        return Staged(stolCopy: copy, database: database, schemaVersion: stored, signedBy: key, statisticsAreOwn: statisticsAreOwn)
    }

    /// Every check of stage 9 on the staged `database`, interruptible through `job`; `progress`
    /// gets the share of tables checked. For a media pack the integrity check alone (its values
    /// are checked after it, `MediaPackSchema.checkValueTypes`).
    private func checkIntegrity(of database: URL, configuration: Configuration, job: ImportJob, statistics: PlannerStatistics,
                                progress: @escaping @Sendable (Double) -> Void) throws -> [String] {
        let uri = TaxonomyDatabase.immutableURI(database)
        let seed = UInt64.random(in: .min ... .max)
        guard kind == .database else {
            let check = IntegrityCheck(path: uri, configuration: configuration, cache: Self.checkCache, seed: seed)
            return try job.whileInterruptible({ check.interrupt() }) { try check.problems(progress: progress) }
        }
        let content = TaxonomyContentCheck(stagedCopy: database)
        let check = IntegrityCheck(path: uri, configuration: configuration, cache: Self.checkCache, seed: seed,
                                   checksValues: true, statistics: statistics)
        let found = try job.whileInterruptible({ check.interrupt(); content.interrupt() }) {
            try check.problems(beside: { db in try content.run(db) }, progress: progress)
        }
        return found + content.problems
    }

    /// Makes the verified database ready to serve in the staged copy (never the user's file):
    /// builds the engine extensions it lacks, so the installed database serves every method
    /// (`building extensions`), and, unless its planner statistics are exactly `ANALYZE`'s (a
    /// file `build-db` made), replaces them with `ANALYZE`'s over the checked data (`computing
    /// statistics`), so no statistics a file brings can steer SQLite's plans to full scans. A
    /// file that needs neither is installed as it was signed, byte for byte.
    private func prepareForServing(_ staged: Staged, job: ImportJob, report: Report) throws(ReferenceError) {
        try checkCancelled(job)
        let database = staged.database
        do {
            var config = Configuration()
            config.label = "stol.import.prepare"
            config.journalMode = .default
            let queue = try DatabaseQueue(path: database.path, configuration: config)
            defer { try? queue.close() }
            let missing = try queue.read { db in
                let present = try SchemaExtensions.present(db)
                return SchemaExtensions.Extension.allCases.filter { $0.derived && !present.contains($0) }
            }
            // New extensions bring new tables and indexes: their statistics are computed too.
            guard !staged.statisticsAreOwn || !missing.isEmpty else { return }
            try job.whileInterruptible({ queue.interrupt() }) {
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA trusted_schema = OFF;")
                    try db.inTransaction {
                        if !missing.isEmpty {
                            report(0.9, ImportStep.buildingExtensions.rawValue)
                            try SchemaExtensions.build(missing, in: db) { report(0.9, "\(ImportStep.buildingExtensions.rawValue): \($0.rawValue)") }
                        }
                        report(0.91, ImportStep.computingStatistics.rawValue)
                        try PlannerStatistics.recompute(db)
                        return .commit
                    }
                }
            }
        } catch let error as ReferenceError {
            throw error
        } catch {
            try checkCancelled(job)
            throw .importFailed("preparing the database: \(Self.describe(error))")
        }
        try checkCancelled(job)
    }

    private func inflate(_ file: RawFile, payloadSize: Int64, to database: URL, job: ImportJob, report: Report) throws(ReferenceError) {
        let output: RawFile
        do { output = try RawFile(creating: database) } catch { throw .importFailed("\(error)") }
        let strm = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        strm.initialize(to: z_stream())
        defer { strm.deallocate() }
        // windowBits 15 + 16: gzip only.
        guard inflateInit2_(strm, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .importFailed("inflateInit2 failed")
        }
        defer { inflateEnd(strm) }
        let chunk = Self.chunkSize
        var inBuffer = [UInt8](repeating: 0, count: chunk)
        var outBuffer = [UInt8](repeating: 0, count: chunk)
        var consumed: Int64 = 0
        var produced: Int64 = 0
        var memberEnded = false
        var sawAnyOutput = false
        /// One inflate call into `outBuffer`; counts and writes what it produced, stopping the
        /// moment the decompressed size passes the limit.
        func inflateStep(_ flush: Int32) throws(ReferenceError) -> (status: Int32, made: Int) {
            let status: Int32 = outBuffer.withUnsafeMutableBufferPointer { outPtr in
                strm.pointee.next_out = outPtr.baseAddress
                strm.pointee.avail_out = UInt32(chunk)
                return CZlib.inflate(strm, flush)
            }
            let made = chunk - Int(strm.pointee.avail_out)
            if made > 0 {
                sawAnyOutput = true
                produced += Int64(made)
                if produced > limits.maxDecompressedBytes { throw .decompressedTooLarge(limit: limits.maxDecompressedBytes) }
                do { try output.write(made == chunk ? outBuffer : Array(outBuffer[0..<made])) } catch { throw .importFailed("\(error)") }
            }
            return (status, made)
        }
        while true {
            try checkCancelled(job)
            let n: Int
            do { n = try file.read(into: &inBuffer) } catch { throw .importFailed("\(error)") }
            if n == 0 { break }
            consumed += Int64(n)
            try inBuffer.withUnsafeMutableBufferPointer { (inPtr: inout UnsafeMutableBufferPointer<UInt8>) throws(ReferenceError) in
                strm.pointee.next_in = inPtr.baseAddress
                strm.pointee.avail_in = UInt32(n)
                while strm.pointee.avail_in > 0 {
                    try checkCancelled(job)
                    if memberEnded {
                        inflateReset(strm)
                        memberEnded = false
                    }
                    let (status, _) = try inflateStep(Z_NO_FLUSH)
                    switch status {
                    case Z_STREAM_END: memberEnded = true
                    case Z_OK: break
                    case Z_BUF_ERROR: break
                    default:
                        let message = strm.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                        throw .databaseCorrupt("gzip: \(message)")
                    }
                }
            }
            report(0.41 + 0.39 * Double(consumed) / Double(max(payloadSize, 1)), ImportStep.decompressing.rawValue)
        }
        // Drain what zlib still holds once the input is exhausted.
        while !memberEnded {
            try checkCancelled(job)
            let (status, made) = try inflateStep(Z_FINISH)
            if status == Z_STREAM_END { memberEnded = true; break }
            if made == 0 { throw .databaseCorrupt("gzip: the payload ends unexpectedly") }
        }
        guard sawAnyOutput else { throw .databaseCorrupt("the payload holds no data") }
        do { try output.sync() } catch { throw .importFailed("\(error)") }
    }

    /// Refuses a WAL-mode file (header bytes 18 and 19 not 1): alone it may lack transactions
    /// committed to its `-wal` file, and any non-immutable reader would create files beside it.
    static func checkJournalMode(_ database: URL) throws(ReferenceError) {
        let header: [UInt8]
        do {
            let file = try RawFile(reading: database)
            var bytes = [UInt8](repeating: 0, count: 100)
            let n = try file.read(into: &bytes)
            header = Array(bytes[0..<n])
        } catch {
            throw .importFailed("\(error)")
        }
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else { return }  // SQLite itself refuses it next.
        guard header[18] == 1, header[19] == 1 else {
            throw .databaseCorrupt("the database is in WAL mode (file format bytes \(header[18]), \(header[19])); pack a rollback-journal database")
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLJSON
import STOLProtocol
import STOLTestSupport
import Testing

/// Every hostile file from `HostileFiles` goes to the real binary over real pipes; each must be
/// refused with its exact `data.kind`, leave the data directory exactly as it was (no temporary
/// file, the installed reference and media pack byte-identical), and the engine keeps serving.
///
/// The default run tries every case (about 25 s on the debug build); `STOL_HOSTILE_QUICK=1` tries
/// a fixed representative subset.
@Suite(.serialized) struct HostileFileTests {
    static var runAll: Bool { ProcessInfo.processInfo.environment["STOL_HOSTILE_QUICK"] != "1" }

    struct Setup: Sendable {
        var files: HostileFiles
        var scratch: URL
        var leo: Int64 { files.leo }
    }

    static let setup = Result { () throws -> Setup in
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stol-hostile-\(UUID().uuidString)")
        return Setup(files: try HostileFiles(scratch: scratch), scratch: scratch)
    }

    /// What must not change when a file is refused.
    struct State: Equatable, CustomStringConvertible {
        var info: JSONValue?
        var packs: JSONValue?
        /// Every path under the data directory; files with size, inode and modification time.
        var tree: [String: String]
        var reference: Data?
        var pack: Data?

        var description: String { "info \(String(describing: info)), packs \(String(describing: packs)), tree \(tree.keys.sorted())" }
    }

    static func tree(_ data: URL) -> [String: String] {
        var out: [String: String] = [:]
        let fm = FileManager.default
        for path in (fm.enumerator(atPath: data.path)?.allObjects as? [String]) ?? [] {
            let attributes = (try? fm.attributesOfItem(atPath: data.appendingPathComponent(path).path)) ?? [:]
            if attributes[.type] as? FileAttributeType == .typeDirectory {
                // An engine's scratch folder: each engine (a restart too) makes one of its own name.
                if path.hasPrefix(".stol-tmp-"), !path.contains("/") { continue }
                out[path] = "directory"
            } else if path.hasPrefix(".stol-tmp-"), path.hasSuffix("/owner.lock") {
                continue
            } else {
                let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                out[path] = "\(attributes[.size] ?? "?") \(attributes[.systemFileNumber] ?? "?") \(modified)"
            }
        }
        return out
    }

    static func state(_ engine: EngineProcess) async -> State {
        let data = engine.dataDirectory
        return State(info: await engine.result(DatabaseInfoRequest()), packs: await engine.result(MediaPacksRequest()), tree: tree(data),
                     reference: try? Data(contentsOf: data.appendingPathComponent("Databases/reference.sqlite")),
                     pack: try? Data(contentsOf: data.appendingPathComponent("Media/hostile-base.sqlite")))
    }

    /// An engine on `data` that trusts the generator's key, with the 1 MiB import limit the bombs aim at.
    static func engine(_ setup: Setup, data: URL, limited: Bool = true) throws -> EngineProcess {
        try EngineProcess(["--trusted-key", setup.files.writer.trusted.hex] + (limited ? ["--max-import-bytes", "\(HostileFiles.importLimit)"] : []), dataDirectory: data)
    }

    /// Installs the valid reference database and media pack the hostile files must not disturb.
    static func installValid(_ setup: Setup, _ engine: EngineProcess) async throws {
        for kind in [StolKind.database, .media] {
            let url = setup.scratch.appendingPathComponent("valid.\(kind.fileExtension)")
            try Data(setup.files.valid(kind)).write(to: url)
            let response = await engine.call(kind.importRequest(url.path), timeout: .seconds(120))
            try #require(response?["result"] != nil, "the valid \(kind.rawValue) file must import: \(String(describing: response))")
            try? FileManager.default.removeItem(at: url)
        }
        _ = await engine.next(timeout: .seconds(2)) { $0["method"] == "database/didSwitch" }
    }

    /// Serving still works: a ping and a taxon read from the reference database.
    static func serving(_ engine: EngineProcess, _ setup: Setup) async -> Bool {
        guard await engine.result(PingRequest()) == .object([]) else { return false }
        return await engine.result(TaxonGetRequest(id: setup.leo))?["scientificName"] == "Panthera leo"
    }

    struct Tally {
        var tried: [HostileCase.Family: Int] = [:]
        var generated: [HostileCase.Family: Int] = [:]
        var kinds: [HostileCase.Family: [String: Int]] = [:]
        var skipped: [String] = []
    }

    /// Tries `cases` (all of `kind`'s by default) on one engine; with `restarting`, the engine is
    /// stopped after each case and a new one started on the same data directory must answer
    /// `ping` and serve the installed reference. `limited` engines refuse more than 1 MiB decompressed.
    func sweep(_ kind: StolKind, cases chosen: [HostileCase]? = nil, limited: Bool = true, restarting: Bool = false) async throws {
        let setup = try Self.setup.get()
        let cases = chosen ?? setup.files.all(kind)
        let data = setup.scratch.appendingPathComponent("data-\(kind.rawValue)-\(UUID().uuidString)")
        let inputs = setup.scratch.appendingPathComponent("inputs-\(kind.rawValue)")
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: data)
            try? FileManager.default.removeItem(at: inputs)
        }
        var engine = try Self.engine(setup, data: data, limited: limited)
        try await Self.installValid(setup, engine)
        #expect(await Self.serving(engine, setup))
        var baseline = await Self.state(engine)
        #expect(baseline.info?["source"] == "reference")
        #expect(baseline.packs?["packs"]?.arrayValue?.count == 2)  // the bundled photographs and the installed pack
        #expect(baseline.reference == Data(setup.files.database))

        var tally = Tally()
        for (number, hostile) in cases.enumerated() {
            tally.generated[hostile.family, default: 0] += 1
            guard Self.runAll || hostile.representative else { continue }
            let label = "\(kind.rawValue) #\(number) [\(hostile.family.rawValue)] \(hostile.name)"
            guard let path = try HostileFiles.materialize(try hostile.make(), in: inputs, name: "case-\(number).\(kind.fileExtension)") else {
                tally.skipped.append(label)
                continue
            }
            defer { Self.clean(inputs) }
            tally.tried[hostile.family, default: 0] += 1

            let response = await engine.call(kind.importRequest(path), timeout: .seconds(120))
            let error = response?["error"]
            #expect(error?["code"] == .integer(kind.errorCode), "\(label): \(String(describing: response))")
            #expect(error?["data"]?["kind"] == .string(hostile.expectedKind), "\(label): \(String(describing: response))")
            for (field, value) in hostile.fields {
                #expect(error?["data"]?[field] == value, "\(label): data.\(field) in \(String(describing: response))")
            }
            if let detail = hostile.detail {
                #expect(error?["data"]?["detail"]?.stringValue?.contains(detail) == true, "\(label): data.detail should name \(detail): \(String(describing: response))")
            }
            if let actual = error?["data"]?["kind"]?.stringValue { tally.kinds[hostile.family, default: [:]][actual, default: 0] += 1 }

            let alive = engine.process.isRunning
            #expect(alive, "\(label): the engine died: \(engine.stderrText.suffix(2000))")
            #expect(await Self.serving(engine, setup), "\(label): the engine stopped serving")
            #expect(ReferenceTests.tmpFiles(data).isEmpty, "\(label): left in tmp: \(ReferenceTests.tmpFiles(data))")
            let after = await Self.state(engine)
            #expect(after == baseline, "\(label): the data directory changed: \(after) vs \(baseline)")
            baseline = after  // One wrongly accepted file must not fail every case after it.
            if !alive || response == nil {
                // Carry on with the other cases on a fresh engine, on the same data directory.
                if engine.process.isRunning { kill(engine.process.processIdentifier, SIGKILL) }
                _ = await engine.waitForExit()
                engine = try Self.engine(setup, data: data, limited: limited)
            } else if restarting {
                engine.closeStdin()
                #expect(await engine.waitForExit() == 0, "\(label): \(engine.stderrText.suffix(2000))")
                engine = try Self.engine(setup, data: data, limited: limited)
                #expect(await engine.result(PingRequest()) == .object([]), "\(label): a restart does not answer ping: \(engine.stderrText.suffix(2000))")
                #expect(await Self.serving(engine, setup), "\(label): a restart does not serve the reference")
                // The engine that stopped took its scratch folder with it: only the new one's is there.
                let scratch = ((try? FileManager.default.contentsOfDirectory(atPath: data.path)) ?? []).filter { $0.hasPrefix(".stol-tmp-") }
                #expect(scratch.count <= 1, "\(label): scratch folders left behind: \(scratch)")
                // The new engine has a scratch folder of its own.
                baseline = await Self.state(engine)
            }
        }
        #expect(!engine.stderrText.contains("Fatal error"), "\(engine.stderrText.suffix(2000))")
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)

        let families = HostileCase.Family.allCases.filter { tally.generated[$0] != nil }
        print("hostile \(kind.rawValue) files (\(Self.runAll ? "full sweep" : "quick subset")):")
        for family in families {
            let kinds = (tally.kinds[family] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print("  \(family.rawValue): \(tally.generated[family] ?? 0) generated, \(tally.tried[family] ?? 0) tried: \(kinds)")
        }
        for label in tally.skipped { print("  skipped (cannot be made as this user): \(label)") }
    }

    /// Removes a case's inputs, even mode-000 files and symlink loops.
    static func clean(_ directory: URL) {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: directory.path)) ?? [] {
            let url = directory.appendingPathComponent(name)
            chmod(url.path, 0o644)
            try? fm.removeItem(at: url)
        }
    }

    @Test func hostileReferenceDatabasesAreRefused() async throws { try await sweep(.database) }

    @Test func hostileMediaPacksAreRefused() async throws { try await sweep(.media) }

    /// Every wrong-typed value of every column of every table, broken trees, full-text indexes,
    /// definitions and tables outside the schema (`HostileFiles.contentCases`): each refused with
    /// its kind and a detail naming the table and column, and after each a new engine on the same
    /// data directory answers `ping` and serves the reference installed before.
    @Test func hostileContentIsRefusedAndEveryRestartAnswersPing() async throws {
        let setup = try Self.setup.get()
        try await sweep(.database, cases: setup.files.contentCases(), limited: false, restarting: true)
    }

    /// Statistics a file brings are replaced by ANALYZE's (a file whose `sqlite_stat1` claims
    /// that `idx_taxa_parent` is useless and `idx_taxa_rank` unique installs with the fixture's own
    /// statistics), and a tree exactly as deep as the engine serves is served whole, from the root.
    @Test func tamperedStatisticsAreReplacedAndTheDeepestTreeIsServedWhole() async throws {
        let setup = try Self.setup.get()
        let files = setup.files
        let data = setup.scratch.appendingPathComponent("data-positive-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let engine = try Self.engine(setup, data: data, limited: false)
        let statistics = "SELECT tbl, idx, stat FROM sqlite_stat1 ORDER BY tbl, idx"
        let own = try SQLiteCLI.run(files.databaseURL, statistics, readOnly: true)
        let tampered = try files.variant(of: files.databaseURL, sql: """
            UPDATE sqlite_stat1 SET stat = '57 57' WHERE idx IN ('idx_taxa_parent', 'idx_taxa_parent_name', 'idx_taxa_scientific_name', 'idx_taxa_name');
            UPDATE sqlite_stat1 SET stat = '57 1' WHERE idx IN ('idx_taxa_rank', 'idx_taxa_status');
            """)
        let stol = setup.scratch.appendingPathComponent("tampered-statistics.stol")
        defer { try? FileManager.default.removeItem(at: stol) }
        try Data(files.writer.envelope(.database, version: 1, payload: Deflate.gzipStored(tampered))).write(to: stol)
        let verified = try EngineBinary.run(["verify", stol.path, "--trusted-key", files.writer.trusted.hex])
        #expect(verified.stdout.contains("note: planner statistics are not ANALYZE's; an import recomputes them"), "\(verified.stdout)")
        let imported = await engine.call(DatabaseImportRequest(path: stol.path), timeout: .seconds(120))
        #expect(imported?["result"]?["source"] == "reference", "\(String(describing: imported))")
        let installed = data.appendingPathComponent("Databases/reference.sqlite")
        #expect(try SQLiteCLI.run(installed, statistics, readOnly: true) == own, "the installed file has ANALYZE's statistics")
        #expect(await engine.result(TaxonChildrenRequest(id: try HostileServingTests.id("Panthera")))?["children"]?.arrayValue?.count == 2)

        // A chain hanging from the root, its end exactly `maxDepth` deep (the tour left out, so the
        // tree comes from taxa): imported, and its lineage served whole.
        let depth = 10_000
        let deep = try files.variant(of: files.databaseURL, sql: HostileFiles.chain(depth) + "DELETE FROM euler_tour; DELETE FROM first_occurrence;")
        let deepStol = setup.scratch.appendingPathComponent("deep.stol")
        defer { try? FileManager.default.removeItem(at: deepStol) }
        try Data(files.writer.envelope(.database, version: 1, payload: Deflate.gzipStored(deep))).write(to: deepStol)
        let deepImport = await engine.call(DatabaseImportRequest(path: deepStol.path), timeout: .seconds(120))
        #expect(deepImport?["result"]?["source"] == "reference", "\(String(describing: deepImport))")
        let root = try #require(TaxonID(try SQLiteCLI.run(files.databaseURL, "SELECT min(id) FROM taxa WHERE parent_id IS NULL", readOnly: true).first ?? ""))
        let end = TaxonID(8_000_000_000 + depth)
        for round in 0..<2 {  // Likely from SQL, then from the in-memory tree (`taxon/lineages` waits for it).
            let ancestors = await engine.call(TaxonAncestorsRequest(id: end), timeout: .seconds(60))?["result"]?["ancestors"]?.arrayValue ?? []
            #expect(ancestors.count == depth, "round \(round): \(ancestors.count)")
            #expect(ancestors.first?["id"] == .integer(root) && ancestors.last?["id"] == .integer(end - 1), "round \(round)")
            let lineage = await engine.call(TaxonLineagesRequest(ids: [end]), timeout: .seconds(60))?["result"]
            #expect(lineage?["lineages"]?.arrayValue?.first?.arrayValue?.count == depth && lineage?["source"] == "tree", "round \(round)")
        }
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)
    }

    /// The generator's own valid variants do import, so every refusal above is the fault's doing.
    @Test func generatedValidFilesImport() async throws {
        let setup = try Self.setup.get()
        let files = setup.files
        let body = files.database, media = files.mediaDatabase
        let writer = files.writer
        let bigPages = try files.variant(of: files.databaseURL, sql: "PRAGMA page_size = 65536; VACUUM;")
        let controls: [(String, StolKind, [UInt8])] = [
            ("stored blocks", .database, files.valid(.database)),
            ("fixed Huffman with runs", .database, writer.envelope(.database, version: 1, payload: Deflate.gzipFixed(body))),
            ("three gzip members", .database, writer.envelope(.database, version: 1, payload:
                Deflate.gzipStored(Array(body[..<1000])) + Deflate.gzipFixed(Array(body[1000..<5000])) + Deflate.gzipStored(Array(body[5000...])))),
            ("65536-byte pages", .database, writer.envelope(.database, version: 1, payload: Deflate.gzipStored(bigPages))),
            ("user_version 99 (the engine reads schema_version)", .database,
             writer.envelope(.database, version: 1, payload: Deflate.gzipStored(try files.variant(of: files.databaseURL, sql: "PRAGMA user_version = 99;")))),
            ("a valid member, then an empty one", .database, writer.envelope(.database, version: 1, payload: Deflate.gzipStored(body) + Deflate.gzipStored([]))),
            // The specification's tables without some or all of the engine's extensions: the import builds them.
            ("without dataset_info", .database, writer.envelope(.database, version: 1, payload: Deflate.gzipStored(try files.variant(of: files.databaseURL, sql: "DROP TABLE dataset_info; VACUUM;")))),
            ("the specification's schema alone", .database, writer.envelope(.database, version: 1, payload: Deflate.gzipStored(try files.variant(
                of: files.databaseURL, sql: HostileFiles.dropExtensions + "VACUUM;")))),
            ("media pack", .media, files.valid(.media)),
            ("media pack in two members", .media, writer.envelope(.media, version: 1, payload: Deflate.gzipFixed(Array(media[..<4096])) + Deflate.gzipStored(Array(media[4096...])))),
        ]
        let data = setup.scratch.appendingPathComponent("data-controls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        // Without the 1 MiB limit: the 65536-byte-page copy inflates to more.
        let engine = try Self.engine(setup, data: data, limited: false)
        for (number, (name, kind, bytes)) in controls.enumerated() {
            let url = setup.scratch.appendingPathComponent("control-\(number).\(kind.fileExtension)")
            try Data(bytes).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            let response = await engine.call(kind.importRequest(url.path), timeout: .seconds(120))
            #expect(response?["result"] != nil, "\(name): \(String(describing: response))")
            #expect(ReferenceTests.tmpFiles(data).isEmpty, "\(name)")
            if kind == .database {
                _ = await engine.next(timeout: .seconds(2)) { $0["method"] == "database/didSwitch" }
                #expect(await Self.serving(engine, setup), "\(name)")
            }
        }
        #expect(await engine.result(MediaImageRequest(taxonId: setup.leo))?["width"] == 6)
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)
    }
}

import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

/// The signed reference database over the real binary: the CLI tools, import with progress,
/// switching and delete, every error kind with a crafted file, cancellation, restart recovery,
/// and a real multi-megabyte mammals+birds `.stol`.
@Suite(.serialized) struct ReferenceTests {
    /// A fixture database packed with a test key; engines trust that key with `--trusted-key`.
    struct Kit: Sendable {
        var dir: URL
        var database: URL
        var key: URL
        var publicKey: String
        var stol: URL
        var otherKey: URL
        var taxaCount: Int

        func file(_ name: String) -> URL { dir.appendingPathComponent(name) }
    }

    static let kit = Result { () throws -> Kit in
        let database = try Fixtures.buildDatabase()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-ref-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let key = dir.appendingPathComponent("test.key"), otherKey = dir.appendingPathComponent("other.key")
        let keygen = try EngineBinary.run(["keygen", "--out", key.path])
        guard keygen.code == 0 else { throw Fixtures.FixtureError(message: keygen.stderr) }
        _ = try EngineBinary.run(["keygen", "--out", otherKey.path])
        let stol = dir.appendingPathComponent("fixture.stol")
        let pack = try EngineBinary.run(["pack", "--db", database.path, "--key", key.path, "--out", stol.path])
        guard pack.code == 0 else { throw Fixtures.FixtureError(message: pack.stderr) }
        let count = try Int(SQLiteCLI.run(database, "SELECT count(*) FROM taxa").first ?? "") ?? 0
        return Kit(dir: dir, database: database, key: key, publicKey: keygen.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                   stol: stol, otherKey: otherKey, taxaCount: count)
    }

    static func dataDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("stol-ref-data-\(UUID().uuidString)")
    }

    func engine(_ data: URL? = nil, _ extra: [String] = []) throws -> EngineProcess {
        try EngineProcess(["--trusted-key", try Self.kit.get().publicKey] + extra, dataDirectory: data ?? Self.dataDirectory())
    }

    /// Packs `database` with `key` (unchecked: any bytes, header schema 1 unless given).
    /// An engine that trusts the test key and has imported `database`, packed and signed, as its
    /// reference database (the import's answer is checked).
    static func importing(_ database: URL, name: String) async throws -> EngineProcess {
        let kit = try kit.get()
        let stol = kit.file("\(name)-\(UUID().uuidString).stol")
        defer { try? FileManager.default.removeItem(at: stol) }
        try pack(database, key: kit.key, out: stol)
        let importer = try EngineProcess(["--trusted-key", kit.publicKey])
        let result = await importer.call(DatabaseImportRequest(path: stol.path), timeout: .seconds(60))
        #expect(result?["result"]?["source"] == "reference", "\(String(describing: result))")
        _ = await importer.next(timeout: .seconds(1)) { $0["method"] == "database/didSwitch" }
        return importer
    }

    static func pack(_ database: URL, key: URL, out: URL, unchecked: Bool = false, level: Int = 6) throws {
        let run = try EngineBinary.run(["pack", "--db", database.path, "--key", key.path, "--out", out.path, "--level", "\(level)"] + (unchecked ? ["--unchecked"] : []))
        guard run.code == 0 else { throw Fixtures.FixtureError(message: run.stderr) }
    }

    /// A `.stol` whose payload is `megabytes` of random bytes, stored uncompressed: slow enough to
    /// cancel mid-way, and it fails at the database stage if left to finish.
    static let bigFile = Result { () throws -> URL in
        let kit = try ReferenceTests.kit.get()
        let raw = kit.file("random.bin")
        _ = FileManager.default.createFile(atPath: raw.path, contents: nil)
        let handle = try FileHandle(forWritingTo: raw)
        let random = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
        for _ in 0..<160 { try handle.write(contentsOf: try random.read(upToCount: 1 << 20) ?? Data()) }
        try handle.close()
        try random.close()
        let out = kit.file("big.stol")
        try pack(raw, key: kit.key, out: out, unchecked: true, level: 0)
        try? FileManager.default.removeItem(at: raw)
        return out
    }

    /// Files left in the engine's scratch folders (`.stol-tmp-*`, and the `tmp` of older engines),
    /// a running engine's lock file aside.
    static func tmpFiles(_ data: URL) -> [String] {
        let fm = FileManager.default
        let folders = ((try? fm.contentsOfDirectory(atPath: data.path)) ?? []).filter { $0 == "tmp" || $0.hasPrefix(".stol-tmp-") }
        return folders.flatMap { folder in
            ((try? fm.contentsOfDirectory(atPath: data.appendingPathComponent(folder).path)) ?? []).filter { $0 != "owner.lock" }.map { "\(folder)/\($0)" }
        }.sorted()
    }

    static func settingActive(_ data: URL) -> Bool? {
        guard let bytes = try? Data(contentsOf: data.appendingPathComponent("settings.json")),
              let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any] else { return nil }
        return object["referenceActive"] as? Bool
    }

    static func referenceFile(_ data: URL) -> URL { data.appendingPathComponent("Databases/reference.sqlite") }

    func importRequest(_ engine: EngineProcess, _ path: String, id: Int, token: String? = nil) {
        engine.sendRequest(DatabaseImportRequest(path: path), id: .integer(id), progressToken: token.map { .string($0) })
    }

    func response(_ engine: EngineProcess, id: Int, timeout: Duration = .seconds(60)) async -> JSONValue? {
        await engine.next(timeout: timeout) { $0["id"] == .integer(id) }
    }

    /// Imports the fixture and checks it is active.
    func importFixture(_ engine: EngineProcess) async throws {
        let kit = try Self.kit.get()
        let result = try #require(await engine.call(DatabaseImportRequest(path: kit.stol.path), timeout: .seconds(60))?["result"])
        #expect(result["source"] == "reference")
        #expect(result["taxaCount"] == .integer(kit.taxaCount))
        _ = await engine.next(timeout: .seconds(1)) { $0["method"] == "database/didSwitch" }
    }

    /// The fixture reference is still installed, unchanged and active; nothing is left in tmp.
    func expectReferenceSurvives(_ engine: EngineProcess, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let kit = try Self.kit.get()
        let info = await engine.result(DatabaseInfoRequest())
        #expect(info?["source"] == "reference", "\(label)", sourceLocation: sourceLocation)
        #expect(info?["taxaCount"] == .integer(kit.taxaCount), "\(label)", sourceLocation: sourceLocation)
        #expect(Self.tmpFiles(engine.dataDirectory).isEmpty, "\(label): \(Self.tmpFiles(engine.dataDirectory))", sourceLocation: sourceLocation)
        #expect(Self.settingActive(engine.dataDirectory) == true, "\(label)", sourceLocation: sourceLocation)
        let installed = try Data(contentsOf: Self.referenceFile(engine.dataDirectory))
        #expect(installed == (try Data(contentsOf: kit.database)), "\(label)", sourceLocation: sourceLocation)
    }

    func expectError(_ response: JSONValue?, kind: String, code: Int = -32020, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response?["error"]?["code"] == .integer(code), "\(String(describing: response))", sourceLocation: sourceLocation)
        #expect(response?["error"]?["data"]?["kind"] == .string(kind), "\(String(describing: response))", sourceLocation: sourceLocation)
    }

    // MARK: CLI

    @Test func keygenPackAndVerify() throws {
        let kit = try Self.kit.get()
        #expect(kit.publicKey.count == 64 && kit.publicKey.allSatisfy(\.isHexDigit))
        let mode = try FileManager.default.attributesOfItem(atPath: kit.key.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let again = try EngineBinary.run(["keygen", "--out", kit.key.path])
        #expect(again.code != 0, "keygen must not overwrite a key")

        let valid = try EngineBinary.run(["verify", kit.stol.path, "--trusted-key", kit.publicKey])
        #expect(valid.code == 0, "\(valid.stdout)\(valid.stderr)")
        for check in ["ok: magic", "ok: payload sha256", "ok: signature", "ok: integrity, values, tree and full-text indexes", "ok: planner statistics are ANALYZE's", "valid"] {
            #expect(valid.stdout.contains(check), "\(check) in \(valid.stdout)")
        }
        let untrusted = try EngineBinary.run(["verify", kit.stol.path])
        #expect(untrusted.code == 1)
        #expect(untrusted.stdout.contains("signatureInvalid"), "\(untrusted.stdout)")

        var bytes = try Data(contentsOf: kit.stol)
        bytes[0] = 0x58
        let bad = kit.file("cli-bad-magic.stol")
        try bytes.write(to: bad)
        let wrong = try EngineBinary.run(["verify", bad.path, "--trusted-key", kit.publicKey])
        #expect(wrong.code == 1)
        #expect(wrong.stdout.contains("notAStolFile"), "\(wrong.stdout)")
    }

    // MARK: Import, progress, switching

    @Test func importReportsProgressInOrderThenSwitchesAndDeletes() async throws {
        let kit = try Self.kit.get()
        let engine = try engine()
        #expect(await engine.result(DatabaseInfoRequest())?["source"] == "bundled")
        #expect(engine.stderrText.contains("--trusted-key") || engine.stderrText.contains("trusting"))

        importRequest(engine, kit.stol.path, id: 500, token: "imp")
        var messages: [JSONValue] = []
        while let message = await engine.next(timeout: .seconds(60)) {
            messages.append(message)
            if message["id"] == .integer(500) { break }
        }
        let response = try #require(messages.last)
        #expect(response["result"]?["source"] == "reference")
        #expect(response["result"]?["taxaCount"] == .integer(kit.taxaCount))
        let progress = messages.filter { $0["method"] == "$/progress" }.compactMap { $0["params"]?["value"] }
        #expect(progress.first?["kind"] == "begin")
        #expect(progress.last?["kind"] == "end")
        let reports = progress.filter { $0["kind"] == "report" }
        #expect(reports.count >= 3)
        let fractions = reports.compactMap { $0["fraction"]?.doubleValue }
        #expect(fractions == fractions.sorted(), "\(fractions)")
        #expect(fractions.last == 1)
        let stages = reports.compactMap { $0["message"]?.stringValue }
        // Reports may be coalesced when output is busy, but the stages never go back.
        let order = ["copying", "checking size", "checking header", "verifying checksum", "verifying signature", "decompressing",
                     "opening database", "checking schema version", "checking integrity", "verified", "installing", "activating", "done"]
        let positions = stages.map { order.firstIndex(of: $0) ?? -1 }
        #expect(!positions.contains(-1), "\(stages)")
        #expect(positions == positions.sorted(), "\(stages)")
        let switchIndex = try #require(messages.firstIndex { $0["method"] == "database/didSwitch" })
        #expect(switchIndex == messages.count - 2, "didSwitch comes just before the response")
        #expect(messages[switchIndex]["params"]?["source"] == "reference")
        #expect(messages[switchIndex]["params"]?["taxaCount"] == .integer(kit.taxaCount))
        try await Task.sleep(for: .milliseconds(200))
        #expect(!engine.pendingLines.contains { $0.contains("$/progress") }, "no progress after the response")

        // Browse it.
        let info = await engine.result(DatabaseInfoRequest())
        #expect(info?["source"] == "reference")
        #expect(info?["dataset"]?["name"] == "Fixture")
        let leo = try #require(Int64(try SQLiteCLI.run(kit.database, "SELECT id FROM taxa WHERE scientific_name = 'Panthera leo'").first ?? ""))
        #expect(await engine.result(TaxonGetRequest(id: leo))?["scientificName"] == "Panthera leo")
        #expect(Self.tmpFiles(engine.dataDirectory).isEmpty)
        #expect(Self.settingActive(engine.dataDirectory) == true)

        // Deactivate without delete: bundled at once, file kept.
        let off = await engine.call(DeactivateReferenceRequest())
        #expect(off?["result"]?["isReferenceActive"] == false)
        #expect(off?["result"]?["referenceAvailable"] == true)
        #expect(off?["result"]?["source"] == "bundled")
        #expect(await engine.next(timeout: .seconds(2)) { $0["method"] == "database/didSwitch" }?["params"]?["source"] == "bundled")
        #expect(await engine.result(DatabaseInfoRequest())?["source"] == "bundled")
        #expect(Self.settingActive(engine.dataDirectory) == false)
        #expect(FileManager.default.fileExists(atPath: Self.referenceFile(engine.dataDirectory).path))

        // Activate again.
        let on = await engine.call(ActivateReferenceRequest())
        #expect(on?["result"]?["isReferenceActive"] == true)
        #expect(await engine.next(timeout: .seconds(2)) { $0["method"] == "database/didSwitch" }?["params"]?["source"] == "reference")
        #expect(await engine.result(DatabaseInfoRequest())?["source"] == "reference")
        #expect(Self.settingActive(engine.dataDirectory) == true)

        // Deactivate with delete: the file is gone, activating fails, re-import works.
        let deleted = await engine.call(DeactivateReferenceRequest(delete: true))
        #expect(deleted?["result"]?["isReferenceActive"] == false)
        #expect(deleted?["result"]?["referenceAvailable"] == false)
        #expect(!FileManager.default.fileExists(atPath: Self.referenceFile(engine.dataDirectory).path))
        #expect(await engine.result(DatabaseInfoRequest())?["source"] == "bundled")
        expectError(await engine.call(ActivateReferenceRequest()), kind: "referenceMissing")
        // Deactivating again is not a switch: no didSwitch.
        _ = await engine.next(timeout: .milliseconds(300)) { $0["method"] == "database/didSwitch" }
        #expect(await engine.result(DeactivateReferenceRequest()) != nil)
        #expect(await engine.next(timeout: .milliseconds(300)) { $0["method"] == "database/didSwitch" } == nil)

        try await importFixture(engine)
        try await expectReferenceSurvives(engine, "re-import after delete")
    }

    /// The engine's working directory is not the client's and it expands no `~`: a path that is
    /// not absolute is refused, naming the field, before anything is copied.
    @Test func aRelativeOrTildePathIsRefused() async throws {
        let engine = try engine()
        for kind in [StolKind.database, .media] {
            for path in ["fixture.stol", "./fixture.stol", "../fixture.stol", "~/fixture.stol", "~"] {
                let error = await engine.call(kind.importRequest(path))?["error"]
                #expect(error?["code"] == -32602, "\(kind) \(path)")
                #expect(error?["data"]?["field"] == "path", "\(kind) \(path)")
                #expect(error?["data"]?["detail"]?.stringValue?.hasPrefix("must be an absolute path") == true, "\(String(describing: error))")
            }
            let tilde = await engine.call(kind.importRequest("~/x.stol"))?["error"]?["data"]?["detail"]?.stringValue
            #expect(tilde?.contains("does not expand ~") == true)
        }
        #expect(Self.tmpFiles(engine.dataDirectory).isEmpty)
        #expect(await engine.result(DatabaseInfoRequest())?["source"] == "bundled")
    }

    // MARK: Every error kind

    /// Comparing follows a switch: the new database's LCA index is built and answers for taxa
    /// that only the reference has.
    @Test func compareFollowsTheSwitchToTheReference() async throws {
        let kit = try Self.kit.get()
        let engine = try engine()
        try await importFixture(engine)
        var stats: JSONValue? = nil
        for _ in 0..<200 {
            stats = await engine.result(CompareStatsRequest())
            if stats?["state"] == "ready", stats?["nodes"] == .integer(kit.taxaCount) { break }
            try await Task.sleep(for: .milliseconds(25))
        }
        #expect(stats?["state"] == "ready")
        #expect(stats?["nodes"] == .integer(kit.taxaCount), "the index describes the reference, not the bundled database")
        let ids = try ["Testus species01", "Testus species02"].map { name in
            try #require(Int64(try SQLiteCLI.run(kit.database, "SELECT id FROM taxa WHERE scientific_name = '\(name)'").first ?? ""))
        }
        let compared = await engine.result(CompareTaxaRequest(a: ids[0], b: ids[1]))
        #expect(compared?["lca"]?["scientificName"] == "Testus")
        #expect(compared?["taxonomicDistance"] == 2)
    }

    /// Requests in flight while the database switches back and forth finish on the database they
    /// started on: every one is answered once, and none fails because a connection closed.
    @Test func requestsInFlightDuringSwitchesAllSucceed() async throws {
        let kit = try Self.kit.get()
        let engine = try engine()
        try await importFixture(engine)
        // Same stable id in the bundled and the fixture database.
        let leo = try #require(Int64(try SQLiteCLI.run(kit.database, "SELECT id FROM taxa WHERE scientific_name = 'Panthera leo'").first ?? ""))
        var expected: [Int: String] = [:]
        var id = 10_000
        for round in 0..<20 {
            for _ in 0..<15 {
                id += 1
                let request: any RPCRequest = [
                    TaxonDetailRequest(id: leo), SearchQueryRequest(query: "panthera"), TaxonAncestorsRequest(id: leo), CompareTaxaRequest(a: leo, b: leo),
                ][id % 4]
                engine.sendRequest(request, id: .integer(id))
                expected[id] = type(of: request).method
            }
            id += 1
            let switching: any RPCRequest = round % 2 == 0 ? DeactivateReferenceRequest() : ActivateReferenceRequest()
            engine.sendRequest(switching, id: .integer(id))
            expected[id] = type(of: switching).method
        }
        for (requestID, method) in expected.sorted(by: { $0.key < $1.key }) {
            let response = await engine.next(timeout: .seconds(60)) { $0["id"] == .integer(requestID) }
            #expect(response?["result"] != nil, "\(method) #\(requestID): \(String(describing: response?["error"]))")
        }
        #expect(await engine.next(timeout: .milliseconds(300)) { $0["id"] != nil } == nil, "nothing answered twice")
        #expect(await engine.result(PingRequest()) == .object([:]))
    }

    /// A file that claims 0 bytes and blocks on read (`/proc/kmsg`, readable as root) is read
    /// no further than its size: before, the import hung forever holding the import slot.
    @Test(.enabled(if: open("/proc/kmsg", O_RDONLY | O_NONBLOCK).closingIfOpen()))
    func aFileIsReadNoFurtherThanItsSize() async throws {
        let engine = try engine()
        for kind in [StolKind.database, .media] {
            let response = await engine.call(kind.importRequest("/proc/kmsg"), timeout: .seconds(20))
            expectError(response, kind: "notAStolFile", code: kind == .database ? -32020 : -32021)
        }
        #expect(Self.tmpFiles(engine.dataDirectory).isEmpty)
    }

    @Test func everyCraftedFileFailsWithItsKindAndTheReferenceSurvives() async throws {
        let kit = try Self.kit.get()
        let fixtureSize = ((try FileManager.default.attributesOfItem(atPath: kit.database.path)[.size] as? NSNumber)?.intValue ?? 0)
        let engine = try engine(nil, ["--max-import-bytes", "\(fixtureSize * 2)"])
        try await importFixture(engine)
        let good = try Data(contentsOf: kit.stol)

        func crafted(_ name: String, _ bytes: Data) throws -> String {
            let url = kit.file(name)
            try bytes.write(to: url)
            return url.path
        }
        func attempt(_ path: String, _ kind: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSONValue? {
            let response = await engine.call(DatabaseImportRequest(path: path), timeout: .seconds(60))
            expectError(response, kind: kind, sourceLocation: sourceLocation)
            #expect(await engine.next(timeout: .milliseconds(50)) { $0["method"] == "database/didSwitch" } == nil, sourceLocation: sourceLocation)
            try await expectReferenceSurvives(engine, kind, sourceLocation: sourceLocation)
            return response
        }

        var magic = good
        magic[0] = 0x58
        _ = try await attempt(try crafted("magic.stol", magic), "notAStolFile")

        var flipped = good
        flipped[flipped.count / 2] ^= 0x01
        _ = try await attempt(try crafted("flipped.stol", flipped), "checksumMismatch")

        let otherSigned = kit.file("other.stol")
        try Self.pack(kit.database, key: kit.otherKey, out: otherSigned)
        _ = try await attempt(otherSigned.path, "signatureInvalid")

        _ = try await attempt(try crafted("truncated.stol", good.prefix(good.count / 2)), "checksumMismatch")
        let shortHeader = try await attempt(try crafted("short.stol", good.prefix(60)), "notAStolFile")
        #expect(shortHeader?["error"]?["data"]?["detail"]?.stringValue?.contains("header") == true)
        let empty = try await attempt(try crafted("empty.stol", Data()), "notAStolFile")
        #expect(empty?["error"]?["data"]?["detail"] == "the file is empty")

        _ = try await attempt(kit.file("does-not-exist.stol").path, "fileUnreadable")
        // Over 2 GiB (sparse, so it costs no disk): refused before anything is copied.
        let huge = kit.file("huge.stol")
        _ = FileManager.default.createFile(atPath: huge.path, contents: nil)
        let hugeHandle = try FileHandle(forWritingTo: huge)
        try hugeHandle.truncate(atOffset: (2 << 30) + 1)
        try hugeHandle.close()
        let tooLarge = try await attempt(huge.path, "fileTooLarge")
        #expect(tooLarge?["error"]?["data"]?["limit"] == .integer(2 << 30))
        try? FileManager.default.removeItem(at: huge)
        _ = try await attempt(kit.dir.path, "fileUnreadable")

        // A gzip bomb: 64 MiB of zeros, far past --max-import-bytes, packed into a few KiB.
        let zeros = kit.file("zeros.bin")
        _ = FileManager.default.createFile(atPath: zeros.path, contents: nil)
        let handle = try FileHandle(forWritingTo: zeros)
        for _ in 0..<64 { try handle.write(contentsOf: Data(count: 1 << 20)) }
        try handle.close()
        let bomb = kit.file("bomb.stol")
        try Self.pack(zeros, key: kit.key, out: bomb, unchecked: true)
        #expect(((try FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? NSNumber)?.intValue ?? 0) < 1 << 20)
        let bombResponse = try await attempt(bomb.path, "decompressedTooLarge")
        #expect(bombResponse?["error"]?["data"]?["limit"] == .integer(fixtureSize * 2))

        // Schema version ahead of the engine's.
        let ahead = kit.file("ahead.sqlite")
        try? FileManager.default.removeItem(at: ahead)
        try FileManager.default.copyItem(at: kit.database, to: ahead)
        _ = try SQLiteCLI.run(ahead, "UPDATE schema_version SET version = 2")
        let aheadStol = kit.file("ahead.stol")
        try Self.pack(ahead, key: kit.key, out: aheadStol)
        let aheadResponse = try await attempt(aheadStol.path, "incompatibleSchema")
        #expect(aheadResponse?["error"]?["data"]?["found"] == 2)
        #expect(aheadResponse?["error"]?["data"]?["expected"] == 1)

        // A corrupt SQLite file inside a valid, signed envelope: damaged pages, and plain garbage.
        var damaged = try Data(contentsOf: kit.database)
        let pageSize = 4096
        for i in (2 * pageSize)..<min(damaged.count, 6 * pageSize) where i % 7 == 0 { damaged[i] = 0xA5 }
        let damagedDB = kit.file("damaged.sqlite")
        try damaged.write(to: damagedDB)
        let damagedStol = kit.file("damaged.stol")
        try Self.pack(damagedDB, key: kit.key, out: damagedStol, unchecked: true)
        let corrupt = try await attempt(damagedStol.path, "databaseCorrupt")
        #expect(corrupt?["error"]?["data"]?["detail"]?.stringValue?.isEmpty == false)

        let garbage = kit.file("garbage.sqlite")
        try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: garbage)
        let garbageStol = kit.file("garbage.stol")
        try Self.pack(garbage, key: kit.key, out: garbageStol, unchecked: true)
        _ = try await attempt(garbageStol.path, "databaseCorrupt")

        // And the engine is still fine.
        #expect(await engine.result(TaxonRootsRequest())?["roots"]?.arrayValue?.isEmpty == false)
    }

    @Test func aSecondImportWhileOneRunsIsRefusedAndOtherRequestsKeepFlowing() async throws {
        let kit = try Self.kit.get()
        let big = try Self.bigFile.get()
        let engine = try engine()
        try await importFixture(engine)

        importRequest(engine, big.path, id: 700, token: "big")
        #expect(await engine.next(timeout: .seconds(20)) { $0["params"]?["value"]?["kind"] == "report" } != nil)
        expectError(await engine.call(DatabaseImportRequest(path: kit.stol.path)), kind: "importAlreadyInProgress")
        expectError(await engine.call(DeactivateReferenceRequest()), kind: "importAlreadyInProgress")
        // Other requests are answered during the import.
        #expect(await engine.call(PingRequest(), timeout: .seconds(2))?["result"] != nil)
        #expect(await engine.result(DatabaseInfoRequest())?["source"] == "reference")

        // The random payload is no database: the import fails at the end and changes nothing.
        expectError(await response(engine, id: 700), kind: "databaseCorrupt")
        try await expectReferenceSurvives(engine, "after the refused second import")
    }

    // MARK: Cancellation

    @Test func cancelRequestStopsAnImportMidway() async throws {
        let big = try Self.bigFile.get()
        let engine = try engine()
        try await importFixture(engine)
        importRequest(engine, big.path, id: 800, token: "c1")
        #expect(await engine.next(timeout: .seconds(20)) { $0["params"]?["value"]?["message"] == "verifying checksum" } != nil)
        engine.notify(CancelRequestNotification(id: .number("800")))
        let response = await response(engine, id: 800)
        expectError(response, kind: "cancelled", code: -32800)
        try await expectReferenceSurvives(engine, "cancelled by $/cancelRequest")
    }

    @Test func cancelImportStopsAnImportMidway() async throws {
        let big = try Self.bigFile.get()
        let engine = try engine()
        try await importFixture(engine)
        #expect(await engine.result(DatabaseCancelImportRequest())?["cancelled"] == false)
        importRequest(engine, big.path, id: 900, token: "c2")
        #expect(await engine.next(timeout: .seconds(20)) { $0["params"]?["value"]?["message"] == "verifying checksum" } != nil)
        #expect(await engine.result(DatabaseCancelImportRequest())?["cancelled"] == true)
        let response = await response(engine, id: 900)
        expectError(response, kind: "cancelled", code: -32800)
        try await expectReferenceSurvives(engine, "cancelled by database/cancelImport")
    }

    // MARK: Restart

    @Test func restartKeepsTheChoiceAndFallsBackFromADamagedReference() async throws {
        let kit = try Self.kit.get()
        let data = Self.dataDirectory()
        let first = try engine(data)
        try await importFixture(first)
        first.closeStdin()
        _ = await first.waitForExit()

        // The choice persists; a crashed engine's scratch folder (its lock free) is removed at
        // start, and so are an older engine's import files in tmp/, but nothing else there.
        let abandoned = data.appendingPathComponent(".stol-tmp-Ab12Cd")
        try FileManager.default.createDirectory(at: abandoned, withIntermediateDirectories: true)
        try Data().write(to: abandoned.appendingPathComponent("owner.lock"))
        try Data("partial".utf8).write(to: abandoned.appendingPathComponent("import-\(UUID().uuidString).stol"))
        try FileManager.default.createDirectory(at: data.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        try Data("partial".utf8).write(to: data.appendingPathComponent("tmp/import-\(UUID().uuidString).sqlite"))
        try Data("partial".utf8).write(to: data.appendingPathComponent("tmp/backup-\(UUID().uuidString).sqlite"))
        let second = try engine(data)
        #expect(await second.result(DatabaseInfoRequest())?["taxaCount"] == .integer(kit.taxaCount))
        #expect(await second.result(DatabaseInfoRequest())?["source"] == "reference")
        #expect(Self.tmpFiles(data).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("tmp").path))
        second.closeStdin()
        _ = await second.waitForExit()

        // A damaged reference falls back to bundled, resets the setting and says why.
        let handle = try FileHandle(forWritingTo: Self.referenceFile(data))
        try handle.write(contentsOf: Data(repeating: 0x42, count: 4096))
        try handle.close()
        let third = try engine(data)
        #expect(await third.result(DatabaseInfoRequest())?["source"] == "bundled")
        #expect(Self.settingActive(data) == false)
        #expect(third.stderrText.contains("falling back to the bundled database"), "\(third.stderrText)")
        // The bundled database still serves, and re-import replaces the damaged file.
        try await importFixture(third)
        try await expectReferenceSurvives(third, "re-import over a damaged file")
        withExtendedLifetime((first, second)) {}
    }

    // MARK: Real data

    @Test func realMammalsAndBirdsStolImportsAndBrowses() async throws {
        let kit = try Self.kit.get()
        let shared = EngineBinary.repositoryRoot.appendingPathComponent("../shared/data").standardizedFileURL
        let mdd = shared.appendingPathComponent("mdd/MDD_v2.1_6801species.csv.gz")
        let avilist = shared.appendingPathComponent("avilist/AviList-v2025-extended.csv.gz")
        try #require(FileManager.default.fileExists(atPath: mdd.path) && FileManager.default.fileExists(atPath: avilist.path))
        let database = kit.file("animals.sqlite")
        let build = try EngineBinary.run(["build-db", "--mdd", mdd.path, "--avilist", avilist.path, "--top-n", "3", "--out", database.path, "--quiet"])
        try #require(build.code == 0, "\(build.stderr)")
        let stol = kit.file("animals.stol")
        try Self.pack(database, key: kit.key, out: stol)
        let size = ((try FileManager.default.attributesOfItem(atPath: stol.path)[.size] as? NSNumber)?.intValue ?? 0)
        #expect(size > 2 << 20, "a multi-megabyte file: \(size)")

        let engine = try engine()
        let result = await engine.call(DatabaseImportRequest(path: stol.path), progressToken: "real", timeout: .seconds(120))?["result"]
        #expect(result?["source"] == "reference")
        let taxa = try Int(SQLiteCLI.run(database, "SELECT count(*) FROM taxa").first ?? "")
        #expect(result?["taxaCount"] == taxa.map { .integer($0) })

        let felidae = try #require(Int64(try SQLiteCLI.run(database, "SELECT id FROM taxa WHERE scientific_name = 'Felidae'").first ?? ""))
        var names: [String] = []
        var queue = [felidae]
        while let id = queue.popLast(), names.count < 200 {
            let children = await engine.result(TaxonChildrenRequest(id: id, limit: 1000))?["children"]?.arrayValue ?? []
            for child in children {
                if let name = child["scientificName"]?.stringValue { names.append(name) }
                if child["rank"] == "genus", let cid = child["id"]?.int64Value { queue.append(cid) }
            }
        }
        #expect(names.contains("Panthera"))
        #expect(names.contains("Panthera leo"), "\(names.prefix(20))")
        #expect(Self.tmpFiles(engine.dataDirectory).isEmpty)
    }
}

private extension Int32 {
    /// For a descriptor from `open`: whether it opened; closes it if so.
    func closingIfOpen() -> Bool {
        guard self >= 0 else { return false }
        close(self)
        return true
    }
}

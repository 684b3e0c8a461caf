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
import Testing

/// How the real binary ends: SIGTERM, SIGINT and SIGHUP stop it gracefully (an import in flight
/// is cancelled and answered, its temporary files removed, favourites left whole on disk, exit
/// code 0); a pipelined `shutdown` and `exit` wait for what was sent before them; a parent that
/// died but is not reaped yet counts as gone.
@Suite(.serialized) struct StoppingTests {
    static let signals: [(number: Int32, name: String)] = [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")]

    /// Every file or folder under `data` named like an import's or a backup's temporary file,
    /// wherever the engine keeps its scratch space (hidden folders included).
    static func leftovers(_ data: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(at: data, includingPropertiesForKeys: nil) else { return [] }
        var found: [String] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            if name.hasPrefix("import-") || name.hasPrefix("backup-") {
                found.append(String(url.path.dropFirst(data.path.count)))
            }
        }
        return found.sorted()
    }

    /// The taxon ids in the favourites file on its own, copied away from any `-wal` or `-shm`
    /// beside it: what a backup of that one file would hold.
    static func idsInFavouritesFileAlone(_ data: URL) throws -> [Int64] {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("stol-stop-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: FavoritesTests.favoritesFile(data), to: copy)
        return try SQLiteCLI.run(copy, "SELECT taxon_id FROM favorites ORDER BY taxon_id", readOnly: true).compactMap { Int64($0) }
    }

    static func favouritesEngine(_ data: URL) throws -> EngineProcess {
        try EngineProcess(["--database", try FavoritesTests.database.get().path], dataDirectory: data)
    }

    @Test(arguments: [0, 1, 2]) func aSignalDuringAnImportCancelsItRemovesItsFilesAndExitsZero(_ which: Int) async throws {
        let (number, name) = Self.signals[which]
        let kit = try ReferenceTests.kit.get()
        let big = try ReferenceTests.bigFile.get()
        let data = ReferenceTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let engine = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        #expect(await engine.result(PingRequest()) == .object([]))
        engine.sendRequest(DatabaseImportRequest(path: big.path), id: 1, progressToken: "stop")
        // A different moment for each signal: copying, starting the checksum, a third into it.
        // (Later stages of this random payload fail on their own too quickly to be caught.)
        let (stage, fraction) = [("copying", 0.0), ("verifying checksum", 0.0), ("verifying checksum", 0.28)][which]
        let reached = await engine.next(timeout: .seconds(60)) { message in
            let value = message["params"]?["value"]
            return value?["message"]?.stringValue == stage && (value?["fraction"]?.doubleValue ?? 0) >= fraction
        }
        try #require(reached != nil, "\(name): the import never reached \(stage) at \(fraction)")
        #expect(!Self.leftovers(data).isEmpty, "\(name): the import should have temporary files while it runs")

        kill(engine.process.processIdentifier, number)
        let code = await engine.waitForExit(timeout: .seconds(30))
        #expect(code == 0, "\(name): exit code; stderr: \(engine.stderrText.suffix(2000))")
        let answer = await engine.next(timeout: .seconds(1)) { $0["id"] == .integer(1) }
        #expect(answer?["error"]?["code"] == .integer(-32800), "\(name): the import is answered as cancelled: \(String(describing: answer))")
        #expect(Self.leftovers(data).isEmpty, "\(name): left behind \(Self.leftovers(data))")
        #expect(engine.stderrText.contains("received \(name)"), "\(name): the log says why it stopped")
        #expect(!FileManager.default.fileExists(atPath: ReferenceTests.referenceFile(data).path), "\(name): nothing was installed")
    }

    @Test(arguments: [0, 1, 2]) func aSignalWhileIdleKeepsTheFavouritesInTheirFile(_ which: Int) async throws {
        let (number, name) = Self.signals[which]
        let data = FavoritesTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let ids = try ["Panthera leo", "Panthera tigris", "Felis catus"].map { try FavoritesTests.id($0) }
        let engine = try Self.favouritesEngine(data)
        for id in ids {
            #expect(await engine.result(FavoritesAddRequest(taxonId: id))?["added"] == true, "\(name)")
        }
        kill(engine.process.processIdentifier, number)
        #expect(await engine.waitForExit() == 0, "\(name); stderr: \(engine.stderrText.suffix(2000))")
        #expect(try Self.idsInFavouritesFileAlone(data) == ids.sorted(), "\(name): favorites.sqlite on its own")

        let restarted = try Self.favouritesEngine(data)
        let listed = await restarted.result(FavoritesListRequest())?["favorites"]?.arrayValue?.compactMap { $0["taxonId"]?.int64Value }
        #expect(listed?.sorted() == ids.sorted(), "\(name)")
        restarted.closeStdin()
        #expect(await restarted.waitForExit() == 0)
    }

    /// `add, add, shutdown, exit` in one write: both adds answered and stored, `shutdown`
    /// answered after them, exit code 0.
    @Test func pipelinedAddsShutdownAndExitAreAllHandledInOrder() async throws {
        let data = FavoritesTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let ids = try ["Panthera leo", "Panthera tigris"].map { try FavoritesTests.id($0) }
        let engine = try Self.favouritesEngine(data)
        // One write: the four lines arrive in one read.
        engine.sendLine([
            RequestLine.encode(FavoritesAddRequest(taxonId: ids[0]), id: 1), RequestLine.encode(FavoritesAddRequest(taxonId: ids[1]), id: 2),
            RequestLine.encode(ShutdownRequest(), id: 3), RequestLine.encode(ExitNotification()),
        ].joined(separator: "\n"))
        #expect(await engine.waitForExit() == 0, "stderr: \(engine.stderrText.suffix(2000))")
        let answers = await (1...3).asyncMap { id in await engine.next(timeout: .seconds(2)) { $0["id"] == .integer(id) } }
        #expect(answers[0]?["result"]?["added"] == true)
        #expect(answers[1]?["result"]?["added"] == true)
        #expect(answers[2]?["result"] == .null && answers[2]?["error"] == nil)
        let order = engine.pendingLines
        #expect(order.filter { $0.contains(#""id":"#) }.isEmpty, "no other answers: \(order)")

        let restarted = try Self.favouritesEngine(data)
        let listed = await restarted.result(FavoritesListRequest())?["favorites"]?.arrayValue?.compactMap { $0["taxonId"]?.int64Value }
        #expect(listed?.sorted() == ids.sorted())
        restarted.closeStdin()
        #expect(await restarted.waitForExit() == 0)
    }

    /// A process spawned without a reaper in sight: it exits at once and stays a zombie until
    /// `reap` is called.
    struct UnreapedChild {
        let pid: pid_t

        init(_ arguments: [String], stdin: Int32? = nil, stdout: Int32? = nil) throws {
            var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) }
            if let stdout { posix_spawn_file_actions_adddup2(&actions, stdout, 1) }
            let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            var pid: pid_t = 0
            let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
            guard status == 0 else { throw Fixtures.FixtureError(message: "posix_spawn \(arguments[0]): \(status)") }
            self.pid = pid
        }

        /// Whether the process is a zombie (exited, not yet reaped), from `/proc/<pid>/stat`.
        static func isZombie(_ pid: pid_t) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let paren = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: paren)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
        }

        /// Whether `pid` is gone or a zombie.
        static func hasEnded(_ pid: pid_t) -> Bool { (kill(pid, 0) != 0 && errno == ESRCH) || isZombie(pid) }

        func waitUntilZombie() async -> Bool {
            for _ in 0..<1000 {
                if Self.isZombie(pid) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            return false
        }

        func reap() {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// `--parent-pid` names a process that has exited but that nobody has reaped: the engine
    /// must see a zombie as gone (it still answers `kill(pid, 0)`).
    @Test func aZombieParentPidEndsTheEngine() async throws {
        let zombie = try UnreapedChild(["/bin/true"])
        defer { zombie.reap() }
        try #require(await zombie.waitUntilZombie(), "the helper should stay a zombie until reaped")
        let engine = try EngineProcess(["--parent-pid", "\(zombie.pid)"])
        let code = await engine.waitForExit(timeout: .seconds(20))
        #expect(code != nil, "the engine should notice the zombie and exit")
        #expect(Self.isStillZombie(zombie.pid), "the helper was reaped behind the test's back: the check proved nothing")
        #expect(engine.stderrText.contains("is gone"), "\(engine.stderrText.suffix(2000))")
    }

    static func isStillZombie(_ pid: pid_t) -> Bool { UnreapedChild.isZombie(pid) }

    /// An intermediate shell starts the engine with `--parent-pid` set to its own pid and exits
    /// at once without being reaped: the engine, orphaned, exits.
    @Test func anEngineWhoseParentExitedUnreapedExits() async throws {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        #expect(pipe(&input) == 0 && pipe(&output) == 0)
        defer { close(input[1]) }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stol-orphan-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        // A non-interactive shell gives background jobs /dev/null as stdin unless told otherwise:
        // fd 3 keeps the test's pipe, so the engine does not simply see end of input.
        let script = #"exec 3<&0; "$1" --parent-pid $$ --data-dir "$2" <&3 2>/dev/null & echo $!; exit 0"#
        let shell = try UnreapedChild(["/bin/sh", "-c", script, "sh", EngineBinary.url.path, data.path], stdin: input[0], stdout: output[1])
        defer { shell.reap() }
        close(input[0])
        close(output[1])
        // The read end stays open: a closed stdout would end the engine for another reason.
        defer { close(output[0]) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(output[0], &buffer, 64)
        let enginePID = try #require(pid_t(String(decoding: buffer[0..<max(n, 0)], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        try #require(await shell.waitUntilZombie(), "the shell should stay a zombie until reaped")
        var ended = false
        for _ in 0..<2000 where !ended {
            ended = UnreapedChild.hasEnded(enginePID)
            if !ended { try? await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(ended, "the orphaned engine should exit")
        if !ended { kill(enginePID, SIGKILL) }
    }
}

extension Sequence {
    /// `map` with an async transform, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}

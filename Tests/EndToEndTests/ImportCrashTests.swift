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

/// SIGKILL in the middle of imports: after every restart the reference database is exactly the
/// old one or exactly the new one, never a partial file, and no temporary file survives.
@Suite(.serialized) struct ImportCrashTests {
    /// Kills per run; the CI run is short, `STOL_IMPORT_KILLS` raises it (RELIABILITY.md uses 100).
    static var kills: Int { Int(ProcessInfo.processInfo.environment["STOL_IMPORT_KILLS"] ?? "") ?? 12 }

    @Test func killedImportsLeaveTheOldOrTheNewDatabase() async throws {
        let kit = try ReferenceTests.kit.get()
        // Two signed databases of different sizes: the fixture and the embedded default one.
        let big = EngineBinary.repositoryRoot.appendingPathComponent("Sources/STOLEngine/Resources/default.sqlite")
        let bigStol = kit.file("crash-default.stol")
        if !FileManager.default.fileExists(atPath: bigStol.path) { try ReferenceTests.pack(big, key: kit.key, out: bigStol) }
        let candidates: [(stol: URL, database: Data)] = [(kit.stol, try Data(contentsOf: kit.database)), (bigStol, try Data(contentsOf: big))]

        let data = ReferenceTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        var installed: Data? = nil
        var generator = SystemRandomNumberGenerator()
        var seed = UInt64.random(in: 0...UInt64.max, using: &generator)
        let replay = seed
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        var killedMidImport = 0
        for round in 0..<Self.kills {
            let target = candidates[round % 2]
            let engine = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
            #expect(await engine.result(PingRequest()) == .object([]), "round \(round)")
            engine.sendRequest(DatabaseImportRequest(path: target.stol.path), id: 1, progressToken: "crash")
            if round % 3 == 2 {
                // A short random delay reaches the late stages: install, rename, activate.
                try await Task.sleep(for: .milliseconds(next(60)))
            } else {
                // Kill on the n-th progress report: certainly while the import is running.
                let reports = 1 + next(6)
                for _ in 0..<reports {
                    _ = await engine.next(timeout: .seconds(5)) { $0["method"] == "$/progress" }
                }
            }
            let answered = engine.pendingLines.contains { $0.contains(#""id":1,"#) }
            kill(engine.process.processIdentifier, SIGKILL)
            _ = await engine.waitForExit()
            if !answered { killedMidImport += 1 }

            // Restart: leftovers are cleaned, and the reference is whole.
            let restarted = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
            let info = await restarted.result(DatabaseInfoRequest())
            #expect(ReferenceTests.tmpFiles(data).isEmpty, "round \(round) (seed \(replay)): \(ReferenceTests.tmpFiles(data))")
            let file = ReferenceTests.referenceFile(data)
            if FileManager.default.fileExists(atPath: file.path) {
                let bytes = try Data(contentsOf: file)
                #expect(candidates.contains { $0.database == bytes }, "round \(round) (seed \(replay)): a partial reference database")
                #expect(installed == nil || bytes == installed || bytes == target.database, "round \(round): neither the old nor the new one")
                installed = bytes
                if info?["source"] == "reference" {
                    #expect(try SQLiteCLI.run(file, "PRAGMA integrity_check", readOnly: true) == ["ok"])
                }
            } else {
                #expect(installed == nil, "round \(round): an installed reference database disappeared")
            }
            restarted.closeStdin()
            _ = await restarted.waitForExit()
        }
        #expect(killedMidImport >= 1, "some kills should land while an import is running (seed \(replay))")
    }
}

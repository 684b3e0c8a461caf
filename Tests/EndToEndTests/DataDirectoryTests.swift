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

/// The data directory is the user's: the real binary touches nothing outside it (decoys behind
/// links and a shared `tmp/` stay byte-identical), keeps every acknowledged favourite in the one
/// file, and leaves no trace of cleared favourites in any file.
@Suite(.serialized) struct DataDirectoryTests {
    /// Every entry under `root`, never following a link: files by content, links by target.
    static func snapshot(_ root: URL) -> [String: String] {
        var result: [String: String] = [:]
        func walk(_ url: URL, _ relative: String) {
            var info = stat()
            guard lstat(url.path, &info) == 0 else { return }
            switch info.st_mode & S_IFMT {
            case S_IFLNK:
                result[relative] = "link → " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) ?? "?")
            case S_IFDIR:
                result[relative + "/"] = "dir"
                for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
                    walk(url.appendingPathComponent(name), relative + "/" + name)
                }
            default:
                result[relative] = (try? Data(contentsOf: url)).map { "\($0.count) bytes, \($0.hashValue)" } ?? "unreadable"
            }
        }
        walk(root, "")
        return result
    }

    /// A folder of someone's files: hidden ones, a subfolder, and a name the engine would give an
    /// import of its own.
    static func makeDecoy(_ url: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: url.appendingPathComponent("project/src"), withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: url.appendingPathComponent("notes.txt"))
        try Data("secret".utf8).write(to: url.appendingPathComponent(".hidden"))
        try Data("code".utf8).write(to: url.appendingPathComponent("project/src/main.c"))
        try Data("looks like ours".utf8).write(to: url.appendingPathComponent("import-\(UUID().uuidString).stol"))
    }

    static func scratchFolders(_ data: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: data.path)) ?? []).filter { $0.hasPrefix(".stol-tmp-") }
    }

    @Test func linksInTheDataDirectoryAreNeverFollowedToWriteOrDelete() async throws {
        let kit = try ReferenceTests.kit.get()
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stol-dd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data"), decoy = root.appendingPathComponent("decoy")
        let outsideLog = root.appendingPathComponent("outside.log")
        try Self.makeDecoy(decoy)
        try Data("the user's log\n".utf8).write(to: outsideLog)
        try FileManager.default.createDirectory(at: data.appendingPathComponent("Diagnostics"), withIntermediateDirectories: true)
        // tmp/ (the old scratch name), a scratch-like name and the log are links to the user's files.
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("tmp"), withDestinationURL: decoy)
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent(".stol-tmp-Zz9Yy8"), withDestinationURL: decoy)
        try FileManager.default.createSymbolicLink(at: data.appendingPathComponent("Diagnostics/diagnostics.log"), withDestinationURL: outsideLog)
        let before = Self.snapshot(root.appendingPathComponent("decoy"))
        let logBefore = try Data(contentsOf: outsideLog)

        let engine = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        #expect(await engine.result(DiagnosticsSetEnabledRequest(enabled: true)) != nil)
        let imported = await engine.call(DatabaseImportRequest(path: kit.stol.path), timeout: .seconds(60))
        #expect(imported?["result"]?["source"] == "reference", "\(String(describing: imported))")
        #expect(await engine.result(FavoritesAddRequest(taxonId: 1)) != nil)
        // A refused import (not a .stol) goes through the scratch folder too.
        let refused = await engine.call(DatabaseImportRequest(path: outsideLog.path))
        #expect(refused?["error"]?["data"]?["kind"] == "notAStolFile")
        _ = await engine.result(DiagnosticsExportRequest())
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)

        #expect(Self.snapshot(decoy) == before, "the decoy folder changed")
        #expect(try Data(contentsOf: outsideLog) == logBefore, "log lines were written through the link")
        #expect(ReferenceTests.tmpFiles(data).filter { !$0.hasPrefix("tmp/") && !$0.hasPrefix(".stol-tmp-Zz9Yy8/") }.isEmpty)
        // The engine's own scratch folder is gone after a clean exit; the link is untouched.
        #expect(Self.scratchFolders(data) == [".stol-tmp-Zz9Yy8"])

        // A second start (cleaning leftovers) leaves them alone too.
        let again = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: data)
        #expect(await again.result(DatabaseInfoRequest())?["source"] == "reference")
        again.closeStdin()
        #expect(await again.waitForExit() == 0)
        #expect(Self.snapshot(decoy) == before)
    }

    @Test func aDataDirectoryWithItsOwnTmpKeepsTheUsersFiles() async throws {
        let kit = try ReferenceTests.kit.get()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("stol-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        try Self.makeDecoy(home.appendingPathComponent("tmp"))
        try Self.makeDecoy(home.appendingPathComponent("Documents"))
        let before = Self.snapshot(home)
        for _ in 0..<2 {
            let engine = try EngineProcess(["--trusted-key", kit.publicKey], dataDirectory: home)
            let imported = await engine.call(DatabaseImportRequest(path: kit.stol.path), timeout: .seconds(60))
            #expect(imported?["result"]?["source"] == "reference")
            engine.closeStdin()
            #expect(await engine.waitForExit() == 0)
        }
        let after = Self.snapshot(home)
        for (path, value) in before { #expect(after[path] == value, "\(path) changed") }
    }

    @Test func aDataDirectoryGivenThroughALinkIsResolvedOnce() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stol-ddlink-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let real = root.appendingPathComponent("real"), link = root.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let engine = try EngineProcess(["--data-dir", link.path])
        #expect(await engine.result(FavoritesAddRequest(taxonId: 5)) != nil)
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)
        #expect(FileManager.default.fileExists(atPath: real.appendingPathComponent("Favorites/favorites.sqlite").path))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
    }

    @Test func theFavouritesFileAloneHoldsEveryAcknowledgedChange() async throws {
        let data = FavoritesTests.dataDirectory(), copy = FavoritesTests.dataDirectory()
        defer { for url in [data, copy] { try? FileManager.default.removeItem(at: url) } }
        let engine = try EngineProcess(dataDirectory: data)
        for id: TaxonID in 1...5 { #expect(await engine.result(FavoritesAddRequest(taxonId: id))?["added"] == true) }
        #expect(await engine.result(FavoritesRemoveRequest(taxonId: 3))?["removed"] == 1)
        let shutdown = await engine.call(ShutdownRequest())
        #expect(shutdown?["result"] != nil)
        engine.notify(ExitNotification())
        #expect(await engine.waitForExit() == 0)
        let folder = data.appendingPathComponent("Favorites")
        // The database and the space reserve (zeros) only: no -wal, no journal.
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: folder.path)) == ["favorites.sqlite", ".space-reserve"])
        #expect(try SQLiteCLI.run(FavoritesTests.favoritesFile(data), "SELECT taxon_id FROM favorites ORDER BY taxon_id") == ["1", "2", "4", "5"])
        // A backup of the one file restores them all.
        try FileManager.default.createDirectory(at: copy.appendingPathComponent("Favorites"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: FavoritesTests.favoritesFile(data), to: FavoritesTests.favoritesFile(copy))
        let restored = try EngineProcess(dataDirectory: copy)
        #expect(await restored.result(FavoritesCountRequest()) == .object(["count": 4]))
        withExtendedLifetime(engine) {}
    }

    @Test func aFileCutToZeroLengthIsReportedNotSilentlyEmptied() async throws {
        let data = FavoritesTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try EngineProcess(dataDirectory: data)
        for id: TaxonID in 1...5 { _ = await first.result(FavoritesAddRequest(taxonId: id)) }
        first.closeStdin()
        #expect(await first.waitForExit() == 0)
        try Data().write(to: FavoritesTests.favoritesFile(data))
        let second = try EngineProcess(dataDirectory: data)
        let status = await second.result(FavoritesStatusRequest())
        #expect(status?["count"] == 0)
        let moved = try #require(status?["recovery"]?["movedAsideTo"]?.stringValue, "\(String(describing: status))")
        #expect(status?["movedAside"] == .array([.string(moved)]))
        #expect(await second.result(StorageReportRequest())?["favoritesRecovery"]?["movedAsideTo"] == .string(moved))
        withExtendedLifetime(first) {}
    }

    @Test func clearAllLeavesNoTraceOfTheClearedFavouritesInAnyFile() async throws {
        let data = FavoritesTests.dataDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        // An earlier damaged file, moved aside at start, holds favourites too.
        try FileManager.default.createDirectory(at: data.appendingPathComponent("Favorites"), withIntermediateDirectories: true)
        try Data("not a database, but the user's bytes 2026-01-01T00:00:00.000Z".utf8).write(to: FavoritesTests.favoritesFile(data))
        let engine = try EngineProcess(dataDirectory: data)
        for id: TaxonID in [1, 2, 3, 40, 500, 6000] { _ = await engine.result(FavoritesAddRequest(taxonId: id)) }
        let listed = await engine.result(FavoritesListRequest())?["favorites"]?.arrayValue ?? []
        let stamps = listed.compactMap { $0["createdAt"]?.stringValue } + ["2026-01-01T00:00:00.000Z"]
        #expect(stamps.count == 7)
        #expect(await engine.result(FavoritesStatusRequest())?["movedAside"]?.arrayValue?.count == 1)
        #expect(await engine.result(FavoritesClearRequest())?["removed"] == 6)
        let status = await engine.result(FavoritesStatusRequest())
        #expect(status?["movedAside"] == .array([]) && status?["recovery"] == .null)
        let report = await engine.result(StorageReportRequest())
        let fileBytes = try FileManager.default.attributesOfItem(atPath: FavoritesTests.favoritesFile(data).path)[.size] as? Int
        #expect(report?["favorites"]?["bytes"] == .integer(try #require(fileBytes)), "only the empty file is left")
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)
        let restarted = try EngineProcess(dataDirectory: data)
        #expect(await restarted.result(FavoritesCountRequest()) == .object(["count": 0]))
        restarted.closeStdin()
        _ = await restarted.waitForExit()
        // Raw bytes of every file left in the data directory, searched for each cleared timestamp.
        let files = FileManager.default.enumerator(atPath: data.path)?.compactMap { $0 as? String } ?? []
        for name in files {
            guard let bytes = FileManager.default.contents(atPath: data.appendingPathComponent(name).path) else { continue }
            for stamp in stamps { #expect(bytes.range(of: Data(stamp.utf8)) == nil, "\(stamp) is still in \(name)") }
        }
        withExtendedLifetime(engine) {}
    }
}

/// On a full disk a user can still remove favourites (and so free space) through the engine:
/// the engine keeps a reserve of zeros and gives it up when a removal finds no room.
@Suite(.serialized) struct FullDiskTests {
    @Test func removeAndClearWorkOnAFullDisk() async throws {
        let mount = FileManager.default.temporaryDirectory.appendingPathComponent("stol-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mount) }
        let mounted = try EngineBinary.run(["--version"]).code == 0
            && Self.shell("mount -t tmpfs -o size=4m tmpfs '\(mount.path)'") == 0
        guard mounted else {
            print("FullDiskTests: skipped, mounting a 4 MiB tmpfs is not allowed here")
            return
        }
        defer { _ = Self.shell("umount '\(mount.path)'") }
        let engine = try EngineProcess(dataDirectory: mount)
        #expect(await engine.result(DiagnosticsSetEnabledRequest(enabled: true))?["enabled"] == true)
        for id: TaxonID in 1...200 { _ = await engine.result(FavoritesAddRequest(taxonId: id)) }
        #expect(await engine.result(FavoritesCountRequest()) == .object(["count": 200]))
        // Fill every free byte.
        _ = Self.shell("dd if=/dev/zero of='\(mount.path)/filler' bs=4096 2>/dev/null; sync")
        let add = await engine.call(FavoritesAddRequest(taxonId: 100_000))
        #expect(add?["error"]?["data"]?["kind"] == "diskFull", "\(String(describing: add))")
        let removed = await engine.call(FavoritesRemoveRequest(taxonIds: [1, 2, 3]))
        #expect(removed?["result"]?["removed"] == 3, "\(String(describing: removed))")
        let cleared = await engine.call(FavoritesClearRequest())
        #expect(cleared?["result"]?["removed"] == 197, "\(String(describing: cleared))")
        #expect(await engine.result(FavoritesCountRequest()) == .object(["count": 0]))
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)
        // The diagnostics log kept only whole lines while the disk was full.
        let log = String(decoding: try Data(contentsOf: mount.appendingPathComponent("Diagnostics/diagnostics.log")), as: UTF8.self)
        #expect(log.hasSuffix("\n"))
        for line in log.split(separator: "\n") { #expect(line.hasPrefix("20") && line.contains(" stol-engine"), "torn line: \(line)") }
        // Nothing was lost on the way: a restart sees the cleared list.
        let again = try EngineProcess(dataDirectory: mount)
        #expect(await again.result(FavoritesCountRequest()) == .object(["count": 0]))
        again.closeStdin()
        _ = await again.waitForExit()
    }

    static func shell(_ command: String) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

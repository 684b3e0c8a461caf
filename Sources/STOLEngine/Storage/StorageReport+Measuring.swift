import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import STOLProtocol
import STOLSupport

extension StorageReport {
    static func fileBytes(_ url: URL) -> Int64 {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return 0 }
        return Int64(info.st_size)
    }

    static func directoryBytes(_ url: URL) -> Int64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.reduce(0) { $0 + fileBytes(url.appendingPathComponent($1)) }
    }

    static func favorites(_ directory: URL) -> Favorites {
        let moved = FavoritesStore.movedAsideCopies(in: directory).map { File(name: $0, bytes: fileBytes(directory.appendingPathComponent($0))) }
        let reserve = fileBytes(directory.appendingPathComponent(FavoritesStore.reserveName))
        return Favorites(bytes: directoryBytes(directory) - reserve, movedAside: moved, reservedBytes: reserve)
    }

    /// Free and total bytes of the volume holding `url` (or its nearest existing parent).
    static func volume(_ url: URL) -> Volume {
        var path = url
        while !FileManager.default.fileExists(atPath: path.path), path.path != "/" { path.deleteLastPathComponent() }
        var info = statvfs()
        guard statvfs(path.path, &info) == 0 else { return Volume(freeBytes: 0, totalBytes: 0) }
        return Volume(freeBytes: Int64(info.f_bavail) * Int64(info.f_frsize), totalBytes: Int64(info.f_blocks) * Int64(info.f_frsize))
    }

    static func make(engine: Engine) async throws -> StorageReport {
        let active = await engine.databases.current().source == .reference
        let recovery = await engine.favorites.startUpRecovery()
        let packs = await engine.media.packs(matchingIn: await engine.databases.current())
        let data = engine.configuration.dataDirectory
        let bundledBytes = engine.databases.bundled.sizeBytes
        let referenceURL = engine.reference.referenceURL
        let diagnostics = engine.diagnostics
        let settingsRecovery = engine.settingsRecovery
        return try await OffPool.run {
            StorageReport(
                bundled: Bundled(bytes: bundledBytes),
                reference: Reference(bytes: fileBytes(referenceURL), available: FileManager.default.fileExists(atPath: referenceURL.path), active: active),
                favorites: favorites(data.appendingPathComponent("Favorites")),
                mediaPacks: packs,
                diagnostics: Diagnostics(bytes: diagnostics.bytes(), enabled: diagnostics.isEnabled),
                caches: Caches(bytes: directoryBytes(data.appendingPathComponent("Caches"))),
                volume: volume(data),
                favoritesRecovery: recovery,
                settingsRecovery: settingsRecovery)
        }
    }
}

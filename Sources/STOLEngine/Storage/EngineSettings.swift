import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import STOLSupport
import STOLProtocol

/// `<data-dir>/settings.json`: which database the user chose, whether diagnostics are kept.
/// Written atomically (temporary file, fsync, rename) and read leniently; keys this engine does
/// not know are kept.
public struct EngineSettings: Sendable {
    public let url: URL
    /// Serialises read-modify-write cycles, so two services saving different keys never lose one.
    private static let writeLock = Locked(())

    public init(dataDirectory: URL) {
        url = dataDirectory.appendingPathComponent("settings.json")
    }

    private func load() -> [String: Any] {
        guard let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    /// At start: a settings file that is not a JSON object (damaged, cut short) is logged and
    /// moved aside to `settings.json.corrupt-<UTC time>`, so that the loss of the choices it held
    /// is reported rather than silent; nil when the file is missing or healthy.
    public func recoverIfDamaged(logger: Logger) -> SettingsRecovery? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        let reason: String
        if (info.st_mode & S_IFMT) != S_IFREG {
            reason = "it is not a regular file"
        } else if let data = try? Data(contentsOf: url) {
            if (try? JSONSerialization.jsonObject(with: data)) is [String: Any] { return nil }
            reason = data.isEmpty ? "it is empty" : "it is not a JSON object"
        } else {
            reason = "it cannot be read"
        }
        let now = Date()
        let name = "settings.json.corrupt-\(Timestamp.compact(now))"
        guard rename(url.path, url.deletingLastPathComponent().appendingPathComponent(name).path) == 0 else {
            logger.error("settings.json is damaged (\(reason)) and cannot be moved aside: \(String(cString: strerror(errno))); using defaults")
            return SettingsRecovery(movedAsideTo: nil, at: Timestamp.iso(now), reason: reason)
        }
        logger.warning("settings.json is damaged (\(reason)); moved it aside to \(name) and started from defaults (bundled database, diagnostics off)")
        return SettingsRecovery(movedAsideTo: name, at: Timestamp.iso(now), reason: reason)
    }

    /// Whether the reference database should be active; false when the file is missing or unreadable.
    public var referenceActive: Bool { bool("referenceActive") }

    public func setReferenceActive(_ active: Bool) throws {
        try set("referenceActive", active)
    }

    /// Whether the opt-in diagnostics log file is kept.
    public var diagnosticsEnabled: Bool { bool("diagnosticsEnabled") }

    public func setDiagnosticsEnabled(_ enabled: Bool) throws {
        try set("diagnosticsEnabled", enabled)
    }

    public func bool(_ key: String) -> Bool {
        load()[key] as? Bool ?? false
    }

    public func set(_ key: String, _ value: Bool) throws {
        try Self.writeLock.withLock { _ in
            var object = load()
            object[key] = value
            try write(object)
        }
    }

    private func write(_ object: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temp = directory.appendingPathComponent(".settings.json.\(UUID().uuidString).tmp")
        let file = try RawFile(creating: temp)
        do {
            try file.write(Array(data) + [0x0A])
            try file.sync()
            guard rename(temp.path, url.path) == 0 else { throw FileIOError("cannot replace \(url.path): \(String(cString: strerror(errno)))") }
        } catch {
            unlink(temp.path)
            throw error
        }
    }
}

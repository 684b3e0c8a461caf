import Foundation
import STOLRPC

/// `<data-dir>/settings.json`: which database the user chose, whether diagnostics are kept.
/// Written atomically (temporary file, fsync, rename) and read leniently; keys this engine does
/// not know are kept.
public struct ReferenceSettings: Sendable {
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
            guard rename(temp.path, url.path) == 0 else { throw StolPacker.PackError.io("cannot replace \(url.path): \(String(cString: strerror(errno)))") }
        } catch {
            unlink(temp.path)
            throw error
        }
    }
}

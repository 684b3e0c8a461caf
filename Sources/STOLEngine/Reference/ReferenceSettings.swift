import Foundation

/// `<data-dir>/settings.json`: which database the user chose. Written atomically (temporary file,
/// fsync, rename) and read leniently; keys this engine does not know are kept.
public struct ReferenceSettings: Sendable {
    public let url: URL

    public init(dataDirectory: URL) {
        url = dataDirectory.appendingPathComponent("settings.json")
    }

    private func load() -> [String: Any] {
        guard let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    /// Whether the reference database should be active; false when the file is missing or unreadable.
    public var referenceActive: Bool {
        load()["referenceActive"] as? Bool ?? false
    }

    public func setReferenceActive(_ active: Bool) throws {
        var object = load()
        object["referenceActive"] = active
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

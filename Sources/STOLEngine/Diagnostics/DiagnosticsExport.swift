import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import STOLSupport

/// The plain-text report `diagnostics/export` returns, for the user to read and share if they
/// choose. No user or host name, no home or data-directory path, no favourite ids, no searches.
enum DiagnosticsExport {
    /// OS name, release and CPU; never the node name (the host name) or the kernel build string.
    static func operatingSystem() -> String {
        var info = utsname()
        uname(&info)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "\(field(info.sysname)) \(field(info.release)) \(field(info.machine)) (\(ProcessInfo.processInfo.operatingSystemVersionString))"
    }

    static func make(engine: Engine) async throws -> String {
        let active = await engine.databases.current()
        let bundled = engine.databases.bundled
        let packs = await engine.media.packs()
        let log = engine.diagnostics
        let redactor = Redactor(dataDirectory: engine.configuration.dataDirectory)
        let referenceAvailable = await engine.reference.referenceAvailable
        return try await OffPool.run {
            var lines = [
                "Species: Tree of Life — engine diagnostics",
                "engine: \(EngineInfo.name) \(EngineInfo.version) (\(EngineInfo.build)), protocol \(EngineInfo.protocolVersion)",
                "os: \(operatingSystem())",
                "active database: \(active.source.rawValue), schema \(active.schemaVersion), \(active.taxaCount) taxa, dataset \(active.datasetInfo["name"] ?? "unnamed") \(active.datasetInfo["version"] ?? "")",
                "bundled database: schema \(bundled.schemaVersion), \(bundled.taxaCount) taxa, \(bundled.sizeBytes) bytes",
                "reference database: \(referenceAvailable ? "imported" : "none")",
                "media packs: \(packs.count) (\(packs.reduce(0) { $0 + $1.imageCount }) images)",
                "diagnostics log: \(log.isEnabled ? "on" : "off")",
                "",
                "recent log lines:",
            ]
            lines += log.recentLines()
            return redactor.scrub(lines.joined(separator: "\n") + "\n")
        }
    }
}

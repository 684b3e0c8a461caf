import Foundation
import STOLJSON
import STOLRPC
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import STOLProtocol

/// Local diagnostics over the real binary: the persisted opt-in, the file, delete, and the
/// export scrubbed for everything that could identify the child or the device.
@Suite(.serialized) struct DiagnosticsTests {
    static func userNames() -> [String] {
        var names = [ProcessInfo.processInfo.environment["USER"]].compactMap { $0 }
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { names.append(String(cString: name)) }
        return names.filter { !$0.isEmpty }
    }

    static func hostNames() -> [String] {
        var buffer = [CChar](repeating: 0, count: 256)
        gethostname(&buffer, buffer.count)
        let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return [host, ProcessInfo.processInfo.hostName].filter { !$0.isEmpty }
    }

    /// Whether `needle` occurs in `text`; names under 3 characters only as whole words.
    static func occurs(_ needle: String, in text: String) -> Bool {
        guard needle.count < 3 else { return text.contains(needle) }
        let pattern = "(?<![A-Za-z0-9])" + NSRegularExpression.escapedPattern(for: needle) + "(?![A-Za-z0-9])"
        return text.range(of: pattern, options: .regularExpression) != nil
    }

    @Test func theExportHoldsNothingPersonal() async throws {
        // The data directory sits under $HOME, so its path holds the home directory and user name.
        let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
        let data = URL(fileURLWithPath: home).appendingPathComponent(".stol-diag-test-\(UUID().uuidString)")
        let engine = try EngineProcess(["--log-level", "debug"], dataDirectory: data)
        #expect(await engine.result(DiagnosticsSetEnabledRequest(enabled: true))?["enabled"] == true)

        let queries = ["Zorblaxian moonbeetle", "qwxzfernpuddle", "Panthera leoqq"]
        for query in queries {
            _ = await engine.result(SearchQueryRequest(query: query))
            _ = await engine.result(SearchAutocompleteRequest(prefix: query))
        }
        let found = try #require(await engine.result(SearchQueryRequest(query: "lion", limit: 5))?["results"]?.arrayValue)
        let ids = found.compactMap { $0["id"]?.int64Value }
        #expect(!ids.isEmpty)
        for id in ids { _ = await engine.result(FavoritesAddRequest(taxonId: id)) }
        _ = await engine.result(FavoritesListRequest())
        _ = await engine.call(TaxonGetRequest(id: ids[0]))
        _ = await engine.call(FavoritesAddRequest.self, params: .object(["taxonId": "not a number"]))
        _ = await engine.call(MediaImportRequest(path: data.appendingPathComponent("nothing.stolmedia").path))
        _ = await engine.call(DatabaseImportRequest(path: data.appendingPathComponent("nothing.stol").path))

        let text = try #require(await engine.result(DiagnosticsExportRequest())?["text"]?.stringValue)
        #expect(text.contains("engine: stol-engine 0.1.0"))
        #expect(text.contains("os: "))
        #expect(text.contains("active database: bundled"))
        #expect(text.contains("diagnostics log enabled"), "the export holds real log lines: \(text)")
        var forbidden = [home, data.path, data.lastPathComponent] + Self.userNames() + Self.hostNames() + queries
        forbidden += ids.map(String.init)
        for needle in forbidden where !needle.isEmpty {
            #expect(!Self.occurs(needle, in: text), "\(needle) in the export:\n\(text)")
        }
        // The file on disk is scrubbed the same way and holds no debug lines.
        let file = try String(contentsOf: data.appendingPathComponent("Diagnostics/diagnostics.log"), encoding: .utf8)
        #expect(!file.contains(" debug "))
        for needle in forbidden where !needle.isEmpty {
            #expect(!Self.occurs(needle, in: file), "\(needle) in the log file")
        }
    }

    @Test func theSettingPersistsAndDeleteRemovesTheFiles() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stol-diag-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try #"{"futureKey": 7, "referenceActive": false}"#.write(to: data.appendingPathComponent("settings.json"), atomically: true, encoding: .utf8)
        let logFile = data.appendingPathComponent("Diagnostics/diagnostics.log")
        // Kept alive to the end: an EngineProcess removes its data directory when it goes away.
        let engine = try EngineProcess(dataDirectory: data)
        do {
            #expect(await engine.result(DiagnosticsStatusRequest())?["enabled"] == false)
            _ = await engine.result(PingRequest())
            #expect(!FileManager.default.fileExists(atPath: logFile.path), "nothing is written before the opt-in")
            let on = try #require(await engine.result(DiagnosticsSetEnabledRequest(enabled: true)))
            #expect(on["enabled"] == true)
            let settings = try JSONSerialization.jsonObject(with: Data(contentsOf: data.appendingPathComponent("settings.json"))) as? [String: Any]
            #expect(settings?["diagnosticsEnabled"] as? Bool == true)
            #expect(settings?["futureKey"] as? Int == 7)
            #expect(settings?["referenceActive"] as? Bool == false)
            engine.closeStdin()
            #expect(await engine.waitForExit() == 0)
        }
        let second = try EngineProcess(dataDirectory: data)
        defer { withExtendedLifetime(engine) {} }
        #expect(await second.result(DiagnosticsStatusRequest())?["enabled"] == true)
        _ = await second.result(PingRequest())
        #expect((await second.result(DiagnosticsStatusRequest())?["bytes"]?.int64Value ?? 0) > 0, "status waits for pending lines")
        #expect(FileManager.default.fileExists(atPath: logFile.path))
        #expect(try String(contentsOf: logFile, encoding: .utf8).contains("serving JSON-RPC"), "start-up lines of the second run are kept")
        // Opting out keeps the files until they are deleted; then nothing more is written.
        let off = try #require(await second.result(DiagnosticsSetEnabledRequest(enabled: false)))
        #expect(off["enabled"] == false)
        #expect(FileManager.default.fileExists(atPath: logFile.path))
        let deleted = try #require(await second.result(DiagnosticsDeleteRequest()))
        #expect(deleted["bytes"] == 0)
        #expect(!FileManager.default.fileExists(atPath: logFile.path))
        _ = await second.result(PingRequest())
        _ = await second.result(FavoritesCountRequest())
        _ = await second.call(TaxonGetRequest(id: 1))
        #expect(!FileManager.default.fileExists(atPath: logFile.path), "nothing is written after opting out")
        expectInvalid(await second.call(DiagnosticsSetEnabledRequest.self, params: .object(["enabled": "yes"])))
    }

    func expectInvalid(_ response: JSONValue?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response?["error"]?["code"] == -32602, "\(String(describing: response))", sourceLocation: sourceLocation)
    }
}

import Foundation
import Logging
import STOLRPC
import Testing
@testable import STOLEngine

/// protocol/openrpc.json must describe exactly the methods the engine serves.
@Suite struct ProtocolDocumentTests {
    static let lifecycle: Set<String> = ["initialize", "initialized", "ping", "shutdown", "exit", "rpc.discover", "$/cancelRequest"]

    @Test func everyServedMethodIsDocumentedAndViceVersa() throws {
        let document = try JSONParser.parse(try EngineInfo.openRPCDocument())
        let documented = Set(document["methods"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? [])
        let engine = try Engine(
            configuration: .init(dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("stol-doc-\(UUID().uuidString)")),
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let served = Set(engine.methods().names)
        #expect(served.subtracting(documented).isEmpty, "served but undocumented: \(served.subtracting(documented).sorted())")
        #expect(documented.subtracting(served).subtracting(Self.lifecycle).isEmpty, "documented but not served: \(documented.subtracting(served).subtracting(Self.lifecycle).sorted())")
    }

    @Test func everyDocumentedMethodHasASummaryAndAResult() throws {
        let document = try JSONParser.parse(try EngineInfo.openRPCDocument())
        for method in document["methods"]?.arrayValue ?? [] {
            #expect(method["summary"]?.stringValue?.isEmpty == false, "\(method["name"] ?? nil)")
            #expect(method["result"] != nil, "\(method["name"] ?? nil)")
        }
    }
}

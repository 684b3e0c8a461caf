import Foundation
import STOLEngine
import STOLJSON
import STOLProtocol
import STOLRPC

/// `stol-engine mcp`: the Model Context Protocol over stdio, built on the same `RPCServer` and
/// the same engine methods as serve mode. Only read-only taxonomy tools are offered: nothing
/// reads or changes favourites, imports or deletes databases, or touches diagnostics.
public enum MCPServer {
    /// The protocol revisions answered through `initialize`, newest first.
    public static let supportedVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    /// What the server tells the assistant about itself.
    static let instructions = """
        An offline encyclopedia of the tree of life, answered from a local, signed taxonomy database. \
        Find taxa with search_taxa (names in many languages, typos allowed); every other tool takes a taxon id \
        or a name that names one taxon. When a name is ambiguous or unknown the tool says so and lists candidates: \
        ask the user or pick an id from them. Nothing leaves this device.
        """

    /// `RPCServer` options for MCP: its own lifecycle, `notifications/cancelled {requestId}`, no
    /// `exit`, `notifications/progress`, and no answer to a request the client cancelled.
    public static func options(base: RPCServer.Options) -> RPCServer.Options {
        var options = base
        options.dialect.standardLifecycle = false
        options.dialect.cancelNotification = "notifications/cancelled"
        options.dialect.cancelIDMember = "requestId"
        options.dialect.exitNotification = nil
        options.dialect.progressNotation = .mcp
        options.dialect.answersCancelledRequests = false
        return options
    }

    /// `initialize`: the version both sides speak, the tools capability and the instructions.
    public struct InitializeRequest: RPCRequest {
        public typealias Response = JSONValue
        public static let method = "initialize"
        public var protocolVersion: String?
        public var capabilities: JSONValue?
        public var clientInfo: JSONValue?

        public init(protocolVersion: String? = nil, capabilities: JSONValue? = nil, clientInfo: JSONValue? = nil) {
            self.protocolVersion = protocolVersion
            self.capabilities = capabilities
            self.clientInfo = clientInfo
        }
    }

    /// `notifications/initialized`: the client is ready; nothing to do.
    public struct InitializedNotification: RPCNotification {
        public static let method = "notifications/initialized"
        public init() {}
    }

    /// `tools/list`: every tool, in one page.
    public struct ListToolsRequest: RPCRequest {
        public typealias Response = JSONValue
        public static let method = "tools/list"
        public var cursor: String?
        public init(cursor: String? = nil) { self.cursor = cursor }
    }

    /// `tools/call`: runs one tool. An unknown tool is a protocol error; a call the tool cannot
    /// answer (bad arguments, an unknown or ambiguous name, an engine error) is a result with
    /// `isError: true`.
    public struct CallToolRequest: RPCRequest {
        public typealias Response = JSONValue
        public static let method = "tools/call"
        public var name: String
        public var arguments: JSONValue?

        public init(name: String, arguments: JSONValue? = nil) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// The MCP methods over `engine`. `testTools` adds `test_sleep`, for the test suites only.
    public static func methods(engine: Engine, version: String, testTools: Bool = false) throws -> MethodTable {
        let engineMethods = engine.methods()
        let document = try JSONParser.parse(try EngineInfo.openRPCDocument())
        var tools = MCPTools.all(table: engineMethods, engine: engine, document: document)
        if testTools { tools.append(testSleep) }
        let byName = Dictionary(uniqueKeysWithValues: tools.map { ($0.name, $0) })
        let listing = JSONValue.object(["tools": .array(tools.map(\.listing))])

        var table = MethodTable()
        table.on(InitializeRequest.self) { params, _ in
            let requested = params.protocolVersion ?? supportedVersions[0]
            let agreed = supportedVersions.contains(requested) ? requested : supportedVersions[0]
            return .object([
                "protocolVersion": .string(agreed),
                "capabilities": .object(["tools": .object(["listChanged": false])]),
                "serverInfo": .object(["name": .string(EngineInfo.name), "title": "Species: Tree of Life (offline)", "version": .string(version)]),
                "instructions": .string(instructions),
            ])
        }
        table.on(InitializedNotification.self) { _, _ in }
        table.on(PingRequest.self) { _, _ in EmptyResponse() }
        table.on(ListToolsRequest.self) { _, _ in listing }
        table.on(CallToolRequest.self) { params, context in
            guard let tool = byName[params.name] else {
                throw RPCError.invalidParams(field: "name", "unknown tool \(params.name); tools/list names them")
            }
            do {
                return try await tool.run(try MCPArguments(params.arguments), context).result
            } catch let error as MCPToolError {
                return error.result
            } catch {
                // The server's own mapping: a cancellation and an unexpected failure stay
                // protocol errors; an engine error is told to the model.
                let cancelled = Task.isCancelled
                let mapped = RPCError(thrown: error, cancelled: cancelled)
                guard mapped.code != ErrorCode.requestCancelled, !RPCError.isUnexpected(error, cancelled: cancelled) else { throw error }
                return toolError(mapped).result
            }
        }
        return table
    }

    /// An engine error told to the model: its message, and its detail when it has one.
    static func toolError(_ error: RPCError) -> MCPToolError {
        var message = error.message
        if let detail = error.data?["detail"]?.stringValue, !message.contains(detail) { message += ": \(detail)" }
        return MCPToolError(message: message, detail: error.data.map { .object(["error": $0]) })
    }

    /// Sleeps for `ms` milliseconds, reporting progress: lets tests cancel a slow call.
    static let testSleep = MCPTool(
        name: "test_sleep", title: "Sleep (tests only)", description: "Sleeps, reporting progress; for the engine's own tests.",
        inputSchema: MCPTools.object(["ms": .object(["type": "integer", "minimum": 0, "maximum": 60000])], required: ["ms"]),
        outputSchema: .object(["type": "object", "properties": .object(["slept": .object(["type": "integer"])]), "required": ["slept"]])
    ) { arguments, context in
        let ms = try arguments.integer("ms", default: 0, range: 0...60_000)
        context.progress?.begin(title: "Sleeping")
        let steps = 10
        for step in 1...steps {
            try await Task.sleep(for: .milliseconds(ms / steps))
            context.progress?.report(fraction: Double(step) / Double(steps), message: "step \(step) of \(steps)")
        }
        context.progress?.end(message: "done")
        return MCPToolOutput(structured: .object(["slept": .integer(ms)]), text: "Slept \(ms) ms.")
    }
}

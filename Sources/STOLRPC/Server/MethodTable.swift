/// The methods a server answers, by name.
public struct MethodTable: Sendable {
    /// A registered method.
    public struct Method: Sendable {
        public let name: String
        /// What its requests wait for before they run.
        public let ordering: MethodOrdering
        /// The contract type it was registered with, when it was (`RPCMethod`).
        public let contract: (any RPCMethod.Type)?
        let run: @Sendable (JSONValue?, RequestContext) async throws -> [UInt8]
    }

    private(set) var methods: [String: Method] = [:]

    public init() {}

    /// Registers the handler of the method `M`: its params decode into `M.Params` and its result
    /// encodes from `M.Result`.
    public mutating func on<M: RPCMethod>(_ method: M.Type, _ handler: @escaping @Sendable (M.Params, RequestContext) async throws -> M.Result) {
        methods[M.name] = Method(name: M.name, ordering: M.ordering, contract: M.self) { params, context in
            let decoded = try ResultEncoding.decodeParams(M.Params.self, from: params)
            return try ResultEncoding.encode(try await handler(decoded, context))
        }
    }

    /// Registers a handler by name, without a contract type (test and conformance methods).
    public mutating func on<P: Decodable & Sendable, R: Encodable & Sendable>(
        _ name: String,
        ordering: MethodOrdering = .concurrent,
        _ handler: @escaping @Sendable (P, RequestContext) async throws -> R
    ) {
        methods[name] = Method(name: name, ordering: ordering, contract: nil) { params, context in
            let decoded = try ResultEncoding.decodeParams(P.self, from: params)
            return try ResultEncoding.encode(try await handler(decoded, context))
        }
    }

    /// Registers a handler that reads raw params (object, array or nil) and returns raw JSON.
    public mutating func onRaw(
        _ name: String,
        ordering: MethodOrdering = .concurrent,
        _ handler: @escaping @Sendable (JSONValue?, RequestContext) async throws -> JSONValue
    ) {
        methods[name] = Method(name: name, ordering: ordering, contract: nil) { params, context in
            JSONWriter.encode(try await handler(params, context))
        }
    }

    /// Adds every method of `other`, replacing any of the same name.
    public mutating func merge(_ other: MethodTable) {
        methods.merge(other.methods) { _, new in new }
    }

    public subscript(name: String) -> Method? { methods[name] }

    /// Runs the method `M` within the request `context` belongs to (its progress and
    /// cancellation), as a protocol layered on this table does: MCP tools call the engine's
    /// methods this way. Returns the result as JSON; errors are thrown as the handler threw them.
    public func call<M: RPCMethod>(_ method: M.Type, _ params: M.Params, context: RequestContext) async throws -> JSONValue
    where M.Params: Encodable {
        guard let registered = methods[M.name] else { throw RPCError.methodNotFound(M.name) }
        return try JSONParser.parse(try await registered.run(try JSONParser.parse(try ResultEncoding.encode(params)), context))
    }

    /// Every registered method name, sorted.
    public var names: [String] { methods.keys.sorted() }
}

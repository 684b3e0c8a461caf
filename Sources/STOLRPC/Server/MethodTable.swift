import STOLJSON
/// The methods a server answers, by name.
public struct MethodTable: Sendable {
    /// A registered method.
    public struct Method: Sendable {
        public let name: String
        /// What its requests wait for before they run (the most a request of it may ask for is
        /// `ordering(for:)`; this is what every request waits for, as documented).
        public let ordering: MethodOrdering
        /// The ordering of one request, from its params; nil when every request has `ordering`.
        let orderingForParams: (@Sendable (JSONValue?) -> MethodOrdering)?
        /// The contract type it was registered with, when it was (`RPCMethod`).
        public let contract: (any RPCMethod.Type)?
        let run: @Sendable (JSONValue?, RequestContext) async throws -> [UInt8]
        /// The answer the method can give at once, on the intake thread, without a task: set for
        /// reads that need no waiting. It returns nil whenever it cannot (the params did not
        /// decode, the data is not ready, an error), and the request then runs as usual.
        let immediate: (@Sendable (JSONValue?, ImmediateContext) -> [UInt8]?)?

        /// How a request with `params` orders against earlier ones.
        public func ordering(for params: JSONValue?) -> MethodOrdering {
            orderingForParams?(params) ?? ordering
        }
    }

    private(set) var methods: [String: Method] = [:]

    public init() {}

    /// Registers the handler of the method `M`: its params decode into `M.Params` and its result
    /// encodes from `M.Result`.
    public mutating func on<M: RPCMethod>(_ method: M.Type, _ handler: @escaping @Sendable (M.Params, RequestContext) async throws -> M.Result) {
        methods[M.name] = Method(name: M.name, ordering: M.ordering, orderingForParams: M.ordering(for:), contract: M.self, run: Self.running(M.self, handler), immediate: nil)
    }

    /// Registers the handler of the method `M` together with the answer it can give at once.
    ///
    /// `immediately` runs on the server's intake thread, in input order, for requests that need
    /// not wait for earlier ones (a method that writes nothing, with no earlier writer of what it
    /// reads, and no progress token). It must be quick and may block only briefly (a read SQLite
    /// answers from its cache); it returns nil, or throws, when it cannot answer, and `handler`
    /// then answers as usual, so that every error keeps one path.
    public mutating func on<M: RPCMethod>(
        _ method: M.Type,
        immediately: @escaping @Sendable (M.Params, ImmediateContext) throws -> M.Result?,
        _ handler: @escaping @Sendable (M.Params, RequestContext) async throws -> M.Result
    ) {
        let immediate: @Sendable (JSONValue?, ImmediateContext) -> [UInt8]? = { params, context in
            let quick = (M.Params.self as? any QuickDecodable.Type).flatMap { $0.init(quick: params) as? M.Params }
            guard let decoded = quick ?? (try? ResultEncoding.decodeParams(M.Params.self, from: params)),
                  let result = try? immediately(decoded, context) else { return nil }
            return try? JSONEncoding.encode(result)
        }
        methods[M.name] = Method(name: M.name, ordering: M.ordering, orderingForParams: M.ordering(for:), contract: M.self, run: Self.running(M.self, handler), immediate: immediate)
    }

    private static func running<M: RPCMethod>(
        _ method: M.Type, _ handler: @escaping @Sendable (M.Params, RequestContext) async throws -> M.Result
    ) -> @Sendable (JSONValue?, RequestContext) async throws -> [UInt8] {
        { params, context in
            let decoded = try ResultEncoding.decodeParams(M.Params.self, from: params)
            return try JSONEncoding.encode(try await handler(decoded, context))
        }
    }

    /// Registers a handler by name, without a contract type (test and conformance methods).
    public mutating func on<P: Decodable & Sendable, R: Encodable & Sendable>(
        _ name: String,
        ordering: MethodOrdering = .concurrent,
        _ handler: @escaping @Sendable (P, RequestContext) async throws -> R
    ) {
        methods[name] = Method(name: name, ordering: ordering, orderingForParams: nil, contract: nil, run: { params, context in
            let decoded = try ResultEncoding.decodeParams(P.self, from: params)
            return try JSONEncoding.encode(try await handler(decoded, context))
        }, immediate: nil)
    }

    /// Registers a handler that reads raw params (object, array or nil) and returns raw JSON.
    public mutating func onRaw(
        _ name: String,
        ordering: MethodOrdering = .concurrent,
        _ handler: @escaping @Sendable (JSONValue?, RequestContext) async throws -> JSONValue
    ) {
        methods[name] = Method(name: name, ordering: ordering, orderingForParams: nil, contract: nil, run: { params, context in
            JSONWriter.encode(try await handler(params, context))
        }, immediate: nil)
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
        try await call(M.name, params: try JSONEncoding.value(of: params), context: context)
    }

    /// Runs the method named `name` with raw params within `context`'s request; the result as JSON.
    public func call(_ name: String, params: JSONValue?, context: RequestContext) async throws -> JSONValue {
        guard let registered = methods[name] else { throw RPCError.methodNotFound(name) }
        return try JSONParser.parse(try await registered.run(params, context))
    }

    /// Every registered method name, sorted.
    public var names: [String] { methods.keys.sorted() }
}

import STOLJSON
import STOLProtocol

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
        /// The contract it was registered with, when it was one.
        public let contract: (any RPCRequest.Type)?
        let run: @Sendable (JSONValue?, RequestContext) async throws -> [UInt8]
        /// The answer the method can give inline, on the intake thread, without a task: set for
        /// reads that need no waiting. It returns nil whenever it cannot (the params did not
        /// decode, the data is not ready, an error), and the request then runs as usual.
        let inline: (@Sendable (JSONValue?, InlineContext) -> [UInt8]?)?

        /// How a request with `params` orders against earlier ones.
        public func ordering(for params: JSONValue?) -> MethodOrdering {
            orderingForParams?(params) ?? ordering
        }
    }

    private(set) var methods: [String: Method] = [:]

    public init() {}

    /// Registers the handler of the contract `R`: params decode into `R` and the result is
    /// `R.Response`.
    public mutating func on<R: RPCRequest>(_ request: R.Type, _ handler: @escaping @Sendable (R, RequestContext) async throws -> R.Response) {
        methods[R.method] = Method(
            name: R.method, ordering: R.ordering, orderingForParams: R.ordering(for:), contract: R.self, run: Self.running(handler), inline: nil)
    }

    /// Registers the handler of the contract `R` together with the answer it can give inline.
    ///
    /// `inline` runs on the server's intake thread, in input order, for requests that need not
    /// wait for earlier ones (a method that writes nothing, with no earlier writer of what it
    /// reads, and no progress token). It must be quick and may block only briefly (a read SQLite
    /// answers from its cache); it returns nil, or throws, when it cannot answer, and `handler`
    /// then answers as usual, so that every error keeps one path.
    public mutating func on<R: RPCRequest>(
        _ request: R.Type,
        inline: @escaping @Sendable (R, InlineContext) throws -> R.Response?,
        _ handler: @escaping @Sendable (R, RequestContext) async throws -> R.Response
    ) {
        let answer: @Sendable (JSONValue?, InlineContext) -> [UInt8]? = { params, context in
            let plain = (R.self as? any InlineDecodable.Type).flatMap { $0.init(inline: params) as? R }
            guard let decoded = plain ?? (try? ParamsDecoding.decode(R.self, from: params)),
                  let result = try? inline(decoded, context) else { return nil }
            return try? JSONEncoding.encode(result)
        }
        methods[R.method] = Method(
            name: R.method, ordering: R.ordering, orderingForParams: R.ordering(for:), contract: R.self, run: Self.running(handler), inline: answer)
    }

    /// Registers the handler of the notification `N`; sent as a request, it is answered `null`.
    public mutating func on<N: RPCNotification>(_ notification: N.Type, _ handler: @escaping @Sendable (N, RequestContext) async throws -> Void) {
        methods[N.method] = Method(name: N.method, ordering: .concurrent, orderingForParams: nil, contract: nil, run: { params, context in
            try await handler(try ParamsDecoding.decode(N.self, from: params), context)
            return Array("null".utf8)
        }, inline: nil)
    }

    private static func running<R: RPCRequest>(
        _ handler: @escaping @Sendable (R, RequestContext) async throws -> R.Response
    ) -> @Sendable (JSONValue?, RequestContext) async throws -> [UInt8] {
        { params, context in
            try JSONEncoding.encode(try await handler(try ParamsDecoding.decode(R.self, from: params), context))
        }
    }

    /// Registers a handler by name, without a contract (test and conformance methods).
    public mutating func on<P: Decodable & Sendable, Result: Encodable & Sendable>(
        _ name: String,
        ordering: MethodOrdering = .concurrent,
        _ handler: @escaping @Sendable (P, RequestContext) async throws -> Result
    ) {
        methods[name] = Method(name: name, ordering: ordering, orderingForParams: nil, contract: nil, run: { params, context in
            try JSONEncoding.encode(try await handler(try ParamsDecoding.decode(P.self, from: params), context))
        }, inline: nil)
    }

    /// Registers a handler that reads raw params (object, array or nil) and returns raw JSON.
    public mutating func onRaw(
        _ name: String,
        ordering: MethodOrdering = .concurrent,
        _ handler: @escaping @Sendable (JSONValue?, RequestContext) async throws -> JSONValue
    ) {
        methods[name] = Method(name: name, ordering: ordering, orderingForParams: nil, contract: nil, run: { params, context in
            JSONWriter.encode(try await handler(params, context))
        }, inline: nil)
    }

    /// Adds every method of `other`, replacing any of the same name.
    public mutating func merge(_ other: MethodTable) {
        methods.merge(other.methods) { _, new in new }
    }

    public subscript(name: String) -> Method? { methods[name] }

    /// Runs `request` within the request `context` belongs to (its progress and cancellation),
    /// as a protocol layered on this table does: MCP tools call the engine's methods this way.
    /// Errors are thrown as the handler threw them.
    public func call<R: RPCRequest>(_ request: R, context: RequestContext) async throws -> R.Response {
        let bytes = try await call(R.method, params: try JSONEncoding.value(of: request), context: context)
        return try JSONValueDecoder().decode(R.Response.self, from: try JSONParser.parse(bytes))
    }

    /// Runs the method named `name` with raw params within `context`'s request; the result's bytes.
    public func call(_ name: String, params: JSONValue?, context: RequestContext) async throws -> [UInt8] {
        guard let registered = methods[name] else { throw RPCError.methodNotFound(name) }
        return try await registered.run(params, context)
    }

    /// Every registered method name, sorted.
    public var names: [String] { methods.keys.sorted() }
}

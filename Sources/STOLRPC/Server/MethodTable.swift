/// The methods a server answers, by name.
public struct MethodTable: Sendable {
    /// A registered method.
    public struct Method: Sendable {
        public let name: String
        /// Ordered methods (those that change state) run one at a time, in arrival order.
        public let ordered: Bool
        let run: @Sendable (JSONValue?, RequestContext) async throws -> [UInt8]
    }

    private(set) var methods: [String: Method] = [:]

    public init() {}

    /// Registers a handler whose params decode into `P` and whose result encodes from `R`.
    public mutating func on<P: Decodable & Sendable, R: Encodable & Sendable>(
        _ name: String,
        ordered: Bool = false,
        _ handler: @escaping @Sendable (P, RequestContext) async throws -> R
    ) {
        methods[name] = Method(name: name, ordered: ordered) { params, context in
            let decoded = try ResultEncoding.decodeParams(P.self, from: params)
            return try ResultEncoding.encode(try await handler(decoded, context))
        }
    }

    /// Registers a handler that reads raw params (object, array or nil) and returns raw JSON.
    public mutating func onRaw(
        _ name: String,
        ordered: Bool = false,
        _ handler: @escaping @Sendable (JSONValue?, RequestContext) async throws -> JSONValue
    ) {
        methods[name] = Method(name: name, ordered: ordered) { params, context in
            JSONWriter.encode(try await handler(params, context))
        }
    }

    /// Adds every method of `other`, replacing any of the same name.
    public mutating func merge(_ other: MethodTable) {
        methods.merge(other.methods) { _, new in new }
    }

    public subscript(name: String) -> Method? { methods[name] }

    /// Every registered method name, sorted.
    public var names: [String] { methods.keys.sorted() }
}

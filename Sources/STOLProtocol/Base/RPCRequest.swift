import STOLJSON

/// One JSON-RPC method's contract, shared by the engine and its clients: the request's params
/// are the type's own members; `method` is its name on the wire, `Response` what it answers
/// with, and `ordering` how it orders against the requests read before it.
///
/// The engine's handler for a method takes the request and must return its `Response`
/// (`MethodTable.on(_:_:)`), and a client sends it and gets a `Response` back
/// (`STOLClient.send(_:)`), so both ends are tied to one type; the OpenRPC document reads it too.
/// Like `RequestType` in swift-tools-protocols' `LanguageServerProtocol`.
public protocol RPCRequest: Codable, Sendable {
    /// What the method answers with.
    associatedtype Response: Codable & Sendable
    /// The method's name on the wire, such as `taxon/get`.
    static var method: String { get }
    /// How its requests order against earlier ones; concurrent unless it says otherwise.
    static var ordering: MethodOrdering { get }
    /// How one request orders, from its raw params: `ordering` unless the method reads more
    /// only when asked to (`taxon/detail` with `include`). Called on the engine's intake thread:
    /// keep it cheap.
    static func ordering(for params: JSONValue?) -> MethodOrdering
}

extension RPCRequest {
    public static var ordering: MethodOrdering { .concurrent }
    public static func ordering(for params: JSONValue?) -> MethodOrdering { ordering }
}

/// A notification's contract: a message that answers nothing, such as `favorites/didChange`.
/// Its params are the type's own members.
public protocol RPCNotification: Codable, Sendable {
    /// The notification's name on the wire.
    static var method: String { get }
}

/// The empty object `{}`, as `ping` answers.
public struct EmptyResponse: Codable, Hashable, Sendable {
    public init() {}
}

/// `null`, as `shutdown` and `initialized` answer; decodes from anything.
public struct NullResponse: Codable, Hashable, Sendable {
    public init() {}
    public init(from decoder: any Decoder) throws {}

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}

import STOLJSON
/// One JSON-RPC method's contract: its name, params, result and ordering.
///
/// A handler registered with `MethodTable.on(_:_:)` must take the method's `Params` and return
/// its `Result`, so the compiler ties the three together; the OpenRPC document and the typed test
/// client read the same type.
public protocol RPCMethod: Sendable {
    /// What the method's `params` object decodes into; `NoParams` when it takes none.
    associatedtype Params: Decodable & Sendable = NoParams
    /// What the method answers with.
    associatedtype Result: Encodable & Sendable
    /// The method's name on the wire, such as `taxon/get`.
    static var name: String { get }
    /// How its requests order against earlier ones; concurrent unless it says otherwise.
    static var ordering: MethodOrdering { get }
    /// How one request orders, from its raw params: `ordering` unless the method reads more
    /// only when asked to (`taxon/detail` with `include`). Called on the intake thread: keep it cheap.
    static func ordering(for params: JSONValue?) -> MethodOrdering
}

extension RPCMethod {
    public static var ordering: MethodOrdering { .concurrent }
    public static func ordering(for params: JSONValue?) -> MethodOrdering { ordering }
}

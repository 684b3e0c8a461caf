import STOLJSON
import STOLProtocol
/// The shape of a `Decodable` params type, read by decoding it once from nothing: each member
/// it asks for, whether it must be present, and a JSON Schema of its type.
///
/// This is how the OpenRPC document is tied to the Swift types: a param that a `Params` struct
/// reads is a param the document must list, with the same name and requiredness.
public struct ParamsShape: Sendable, Equatable {
    /// One member of the params object.
    public struct Member: Sendable, Equatable {
        public var name: String
        public var required: Bool
        /// A JSON Schema of the member's type, as far as decoding reveals it.
        public var schema: JSONValue
    }

    /// The members in the order the type reads them.
    public var members: [Member]

    /// The shape of `type`. Types that read no keyed container (such as `NoParams`) have none.
    public static func of<P: Decodable>(_ type: P.Type) -> ParamsShape {
        let node = ShapeNode()
        _ = try? P(from: ShapeDecoder(node: node, codingPath: []))
        return ParamsShape(members: node.members.map { Member(name: $0.name, required: $0.required, schema: $0.node.schema) })
    }
}

/// What decoding revealed about one value.
final class ShapeNode {
    enum Kind { case unknown, any, primitive(String), enumeration([String]), array(ShapeNode), object }
    var kind = Kind.unknown
    var members: [(name: String, required: Bool, node: ShapeNode)] = []

    var schema: JSONValue {
        switch kind {
        case .unknown, .any: return .object([])
        case .primitive(let type): return .object(["type": .string(type)])
        case .enumeration(let names): return .object(["type": "string", "enum": .array(names.map { .string($0) })])
        case .array(let element): return .object(["type": "array", "items": element.schema])
        case .object:
            var object: [(key: String, value: JSONValue)] = [("type", "object")]
            object.append(("properties", .object(members.map { (key: $0.name, value: $0.node.schema) })))
            let required = members.filter(\.required).map { JSONValue.string($0.name) }
            if !required.isEmpty { object.append(("required", .array(required))) }
            return .object(object)
        }
    }

    func member(_ name: String, required: Bool) -> ShapeNode {
        if let existing = members.first(where: { $0.name == name }) { return existing.node }
        let node = ShapeNode()
        members.append((name, required, node))
        return node
    }

    /// Records `T` as this node's type and returns a placeholder value of it.
    func decode<T: Decodable>(_ type: T.Type, codingPath: [any CodingKey]) throws -> T {
        if let primitive = Self.primitive(type) {
            kind = .primitive(primitive.name)
            // Placeholders are sound values of each primitive type.
            return primitive.value as! T
        }
        if type == JSONValue.self {
            kind = .any
            return JSONValue.null as! T
        }
        if let named = type as? any EnumeratedParam.Type {
            kind = .enumeration(named.caseNames)
            return named.firstCase as! T
        }
        return try T(from: ShapeDecoder(node: self, codingPath: codingPath))
    }

    private static func primitive(_ type: Any.Type) -> (name: String, value: Any)? {
        switch type {
        case is String.Type: ("string", "")
        case is Bool.Type: ("boolean", false)
        case is Int.Type: ("integer", 0 as Int)
        case is Int64.Type: ("integer", 0 as Int64)
        case is Int32.Type: ("integer", 0 as Int32)
        case is UInt.Type: ("integer", 0 as UInt)
        case is UInt64.Type: ("integer", 0 as UInt64)
        case is Double.Type: ("number", 0.0 as Double)
        case is Float.Type: ("number", 0 as Float)
        default: nil
        }
    }
}

private struct ShapeDecoder: Decoder {
    let node: ShapeNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        node.kind = .object
        return KeyedDecodingContainer(ShapeKeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let element: ShapeNode
        if case .array(let existing) = node.kind { element = existing } else { element = ShapeNode() }
        node.kind = .array(element)
        return ShapeUnkeyedContainer(element: element, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ShapeSingleValueContainer(node: node, codingPath: codingPath)
    }
}

private struct ShapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: ShapeNode
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try node.member(key.stringValue, required: true).decode(type, codingPath: codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try node.member(key.stringValue, required: false).decode(type, codingPath: codingPath + [key])
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try optional(type, key) }

    private func optional<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try node.member(key.stringValue, required: false).decode(type, codingPath: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let child = node.member(key.stringValue, required: true)
        child.kind = .object
        return KeyedDecodingContainer(ShapeKeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ShapeDecoder(node: node.member(key.stringValue, required: true), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ShapeDecoder(node: node, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        ShapeDecoder(node: node.member(key.stringValue, required: true), codingPath: codingPath + [key])
    }
}

/// Presents one element, so the element type is recorded once.
private struct ShapeUnkeyedContainer: UnkeyedDecodingContainer {
    let element: ShapeNode
    let codingPath: [any CodingKey]
    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex > 0 }
    var currentIndex = 0

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        currentIndex += 1
        return try element.decode(type, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        currentIndex += 1
        element.kind = .object
        return KeyedDecodingContainer(ShapeKeyedContainer<NestedKey>(node: element, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        currentIndex += 1
        return try ShapeDecoder(node: element, codingPath: codingPath).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { ShapeDecoder(node: element, codingPath: codingPath) }
}

private struct ShapeSingleValueContainer: SingleValueDecodingContainer {
    let node: ShapeNode
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try node.decode(type, codingPath: codingPath)
    }
}

extension EnumeratedParam {
    /// A sound value of the type, for shape decoding.
    fileprivate static var firstCase: Self { allCases.first! }
    fileprivate static var caseNames: [String] { allCases.map(\.rawValue) }
}

import STOLJSON

/// Output schemas for the tools, taken from the engine's own OpenRPC document so that MCP and
/// JSON-RPC describe the same results the same way: a method's result schema, made
/// self-contained (its `#/components/schemas/…` references point into `$defs`).
enum MCPOutputSchema {
    /// The result schema of JSON-RPC method `method`, self-contained.
    /// A result that is only a reference to a component (`{"$ref": "#/components/schemas/X"}`) is
    /// replaced by that component, since MCP wants an output schema of `type` object at its top.
    static func result(of method: String, in document: JSONValue) -> JSONValue {
        var schema = document["methods"]?.arrayValue?.first { $0["name"]?.stringValue == method }?["result"]?["schema"] ?? .object([])
        if let ref = schema["$ref"]?.stringValue, ref.hasPrefix("#/components/schemas/"),
           let component = document["components"]?["schemas"]?[String(ref.dropFirst("#/components/schemas/".count))] {
            schema = component
        }
        return selfContained(schema, document: document)
    }

    /// `schema` with a `$defs` holding every component schema, references rewritten.
    static func selfContained(_ schema: JSONValue, document: JSONValue) -> JSONValue {
        guard case .object(var members) = rewritten(schema) else { return schema }
        if case .object(let components)? = document["components"]?["schemas"] {
            members.append(("$defs", .object(components.map { (key: $0.key, value: rewritten($0.value)) })))
        }
        return .object(members)
    }

    private static func rewritten(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(members.map { member in
                if member.key == "$ref", let ref = member.value.stringValue, ref.hasPrefix("#/components/schemas/") {
                    return (member.key, .string("#/$defs/" + ref.dropFirst("#/components/schemas/".count)))
                }
                return (member.key, rewritten(member.value))
            })
        case .array(let items):
            return .array(items.map(rewritten))
        default:
            return value
        }
    }
}

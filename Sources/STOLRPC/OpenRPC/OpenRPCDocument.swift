import STOLJSON
import STOLProtocol
/// Keeps an OpenRPC document in step with a method table.
///
/// The document's prose (summaries, descriptions, examples, result schemas, error catalogue) is
/// written by people; what the Swift types say is generated into it: which methods exist, each
/// method's params (names and requiredness from its request type; a documented schema is kept,
/// an undocumented param gets the schema its type reveals; integer ranges, `minimum` and
/// `maximum`, come from `BoundedParams`) and its ordering (`x-ordering`).
public enum OpenRPCDocument {
    /// Why a document cannot be brought in step with the table.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// `document` with its methods refreshed from `table`. Methods handled inline by the server
    /// (`inline`, such as `exit`) are kept as documented. A method served but not documented is a
    /// problem: its summary and result must be written first.
    public static func refreshed(_ document: JSONValue, from table: MethodTable, inline: Set<String>) throws -> JSONValue {
        guard case .object(var root) = document, let documented = document["methods"]?.arrayValue else {
            throw Problem(description: "the document has no methods array")
        }
        let served = Set(table.names)
        let names = documented.compactMap { $0["name"]?.stringValue }
        let missing = served.subtracting(names).sorted()
        guard missing.isEmpty else {
            throw Problem(description: "served but not documented (add a summary and a result): \(missing.joined(separator: ", "))")
        }
        var methods: [JSONValue] = []
        for entry in documented {
            guard let name = entry["name"]?.stringValue else { throw Problem(description: "a method without a name") }
            if inline.contains(name) {
                methods.append(entry)
                continue
            }
            guard let method = table[name] else { continue }  // documented, no longer served: dropped
            methods.append(refreshed(entry, method: method))
        }
        if let index = root.firstIndex(where: { $0.key == "methods" }) { root[index].value = .array(methods) }
        return .object(root)
    }

    private static func refreshed(_ entry: JSONValue, method: MethodTable.Method) -> JSONValue {
        guard case .object(var members) = entry else { return entry }
        if let contract = method.contract {
            let documented = entry["params"]?.arrayValue ?? []
            let params: [JSONValue] = contract.paramsShape.members.map { member in
                var param: [(key: String, value: JSONValue)]
                if let existing = documented.first(where: { $0["name"]?.stringValue == member.name }), case .object(let fields) = existing {
                    param = fields
                } else {
                    param = [("name", .string(member.name)), ("schema", member.schema)]
                }
                set("required", .bool(member.required), in: &param, after: "schema")
                let bounds = contract.paramsBounds.filter { $0.key == member.name || $0.key.hasPrefix(member.name + ".") }
                if !bounds.isEmpty, let index = param.firstIndex(where: { $0.key == "schema" }) {
                    for (path, range) in bounds {
                        param[index].value = bounded(param[index].value, path.split(separator: ".").dropFirst().map(String.init)[...], range)
                    }
                }
                return .object(param)
            }
            set("params", .array(params), in: &members, after: "paramStructure")
        }
        let ordering = method.ordering
        if ordering == .concurrent {
            members.removeAll { $0.key == "x-ordering" }
        } else {
            var value: [(key: String, value: JSONValue)] = []
            if !ordering.reads.isEmpty { value.append(("reads", .array(ordering.reads.sorted().map { .string($0) }))) }
            if !ordering.writes.isEmpty { value.append(("writes", .array(ordering.writes.sorted().map { .string($0) }))) }
            if ordering.closesIntake { value.append(("closesIntake", true)) }
            set("x-ordering", .object(value), in: &members, after: "result")
        }
        return .object(members)
    }

    /// `schema` with `minimum` and `maximum` set from `range` where `path` leads (`*`: the array's
    /// `items`).
    private static func bounded(_ schema: JSONValue, _ path: ArraySlice<String>, _ range: ClosedRange<Int64>) -> JSONValue {
        guard case .object(var members) = schema else { return schema }
        if path.first == "*" {
            let items = members.first { $0.key == "items" }?.value ?? .object([("type", "integer")])
            set("items", bounded(items, path.dropFirst(), range), in: &members, after: "type")
        } else if path.isEmpty {
            set("minimum", .integer(range.lowerBound), in: &members, after: "type")
            set("maximum", .integer(range.upperBound), in: &members, after: "minimum")
        }
        return .object(members)
    }

    /// Replaces `key`'s value, or inserts it after `anchor` (at the end when there is none).
    private static func set(_ key: String, _ value: JSONValue, in members: inout [(key: String, value: JSONValue)], after anchor: String) {
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else if let index = members.firstIndex(where: { $0.key == anchor }) {
            members.insert((key, value), at: index + 1)
        } else {
            members.append((key, value))
        }
    }
}

extension RPCRequest {
    /// The members of this request's params, read from its type.
    public static var paramsShape: ParamsShape { ParamsShape.of(Self.self) }
}

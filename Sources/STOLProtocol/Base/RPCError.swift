import STOLJSON

/// A JSON-RPC error object: what the engine answers a request it cannot carry out with, and
/// what a client throws. Its `code` is the family, its `kind` (`data.kind`) the stable name of
/// the error, and `data` holds the fields that explain it.
public struct RPCError: Error, Sendable, Hashable, Codable {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The stable name of the error (`data.kind`), such as `taxonNotFound`; nil when it has none.
    public var kind: ErrorKind? { data?["kind"]?.stringValue.map(ErrorKind.init(rawValue:)) }

    /// The explanation in `data.detail`, when there is one.
    public var detail: String? { data?["detail"]?.stringValue }

    /// The params member an invalid-params error names (`data.field`), such as `taxonId`.
    public var field: String? { data?["field"]?.stringValue }

    /// The error as a JSON object.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("code", .integer(code)), ("message", .string(message))]
        if let data { members.append(("data", data)) }
        return .object(members)
    }
}

extension RPCError: CustomStringConvertible {
    public var description: String {
        "\(message) (\(code)\(kind.map { ", \($0.rawValue)" } ?? ""))"
    }
}

extension RPCError {
    /// Builds an error whose `data` holds a stable `kind` plus extra fields.
    public static func kind(_ code: Int, _ kind: ErrorKind, _ message: String, _ fields: KeyValuePairs<String, JSONValue> = [:]) -> RPCError {
        var data: [(key: String, value: JSONValue)] = [("kind", .string(kind.rawValue))]
        data.append(contentsOf: fields.map { (key: $0.key, value: $0.value) })
        return RPCError(code: code, message: message, data: .object(data))
    }

    public static func parseError(_ failure: JSONParser.Failure) -> RPCError {
        let kind: ErrorKind = failure == .invalidUTF8 ? .invalidUTF8 : .invalidJSON
        return .kind(ErrorCode.parseError, kind, "Parse error", ["detail": .string(failure.detail)])
    }

    public static func invalidRequest(_ detail: String, kind: ErrorKind = .invalidRequest) -> RPCError {
        .kind(ErrorCode.invalidRequest, kind, "Invalid Request", ["detail": .string(detail)])
    }

    public static func methodNotFound(_ method: String) -> RPCError {
        .kind(ErrorCode.methodNotFound, .methodNotFound, "Method not found: \(method)", ["method": .string(method)])
    }

    /// Invalid params; `field` is a dotted path such as `taxonId` or `filters.rank`; `extra` adds
    /// members to `data` (the allowed values, a limit).
    public static func invalidParams(field: String?, _ detail: String, _ extra: KeyValuePairs<String, JSONValue> = [:]) -> RPCError {
        var fields: [(key: String, value: JSONValue)] = [("kind", .string(ErrorKind.invalidParams.rawValue))]
        if let field { fields.append(("field", .string(field))) }
        fields.append(("detail", .string(detail)))
        fields.append(contentsOf: extra.map { (key: $0.key, value: $0.value) })
        let message = field.map { "Invalid params: \($0): \(detail)" } ?? "Invalid params: \(detail)"
        return RPCError(code: ErrorCode.invalidParams, message: message, data: .object(fields))
    }

    public static let internalError = RPCError.kind(ErrorCode.internalError, .internal, "Internal error")
    public static let cancelled = RPCError.kind(ErrorCode.requestCancelled, .cancelled, "Request cancelled")
    public static let serverShutDown = RPCError.kind(ErrorCode.serverShutDown, .serverShutDown, "The server has been shut down")
}

import STOLJSON
/// A JSON-RPC error object. Handlers throw it to answer with a specific code and `data`.
public struct RPCError: Error, Sendable, Equatable {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The error as a JSON object.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("code", .integer(code)), ("message", .string(message))]
        if let data { members.append(("data", data)) }
        return .object(members)
    }
}

/// The error codes of JSON-RPC 2.0, LSP's cancellation code, and this protocol's own.
public enum ErrorCode {
    public static let parseError = -32700
    public static let invalidRequest = -32600
    public static let methodNotFound = -32601
    public static let invalidParams = -32602
    public static let internalError = -32603
    public static let requestCancelled = -32800
    public static let serverShutDown = -32001
    public static let notFound = -32002
    public static let notPossible = -32003
}

extension RPCError {
    /// Builds an error whose `data` holds a stable `kind` plus extra fields.
    public static func kind(_ code: Int, _ kind: String, _ message: String, _ fields: KeyValuePairs<String, JSONValue> = [:]) -> RPCError {
        var data: [(key: String, value: JSONValue)] = [("kind", .string(kind))]
        data.append(contentsOf: fields.map { (key: $0.key, value: $0.value) })
        return RPCError(code: code, message: message, data: .object(data))
    }

    public static func parseError(_ failure: JSONParser.Failure) -> RPCError {
        let kind = failure == .invalidUTF8 ? "invalidUTF8" : "invalidJSON"
        return .kind(ErrorCode.parseError, kind, "Parse error", ["detail": .string(failure.detail)])
    }

    public static func invalidRequest(_ detail: String, kind: String = "invalidRequest") -> RPCError {
        .kind(ErrorCode.invalidRequest, kind, "Invalid Request", ["detail": .string(detail)])
    }

    public static func methodNotFound(_ method: String) -> RPCError {
        .kind(ErrorCode.methodNotFound, "methodNotFound", "Method not found: \(method)", ["method": .string(method)])
    }

    /// Invalid params; `field` is a dotted path such as `taxonId` or `filters.rank`; `extra` adds
    /// members to `data` (the allowed values, a limit).
    public static func invalidParams(field: String?, _ detail: String, _ extra: KeyValuePairs<String, JSONValue> = [:]) -> RPCError {
        var fields: [(key: String, value: JSONValue)] = [("kind", "invalidParams")]
        if let field { fields.append(("field", .string(field))) }
        fields.append(("detail", .string(detail)))
        fields.append(contentsOf: extra.map { (key: $0.key, value: $0.value) })
        let message = field.map { "Invalid params: \($0): \(detail)" } ?? "Invalid params: \(detail)"
        return RPCError(code: ErrorCode.invalidParams, message: message, data: .object(fields))
    }

    public static let internalError = RPCError.kind(ErrorCode.internalError, "internal", "Internal error")
    public static let cancelled = RPCError.kind(ErrorCode.requestCancelled, "cancelled", "Request cancelled")
    public static let serverShutDown = RPCError.kind(ErrorCode.serverShutDown, "serverShutDown", "The server has been shut down")
}

/// A domain error that knows which JSON-RPC error it should become.
public protocol RPCErrorConvertible: Error {
    var rpcError: RPCError { get }
}

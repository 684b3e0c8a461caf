import STOLJSON

/// `$/progress {token, value}`: how far a request that asked for progress has come. A client
/// asks by putting a token in the request's `params._meta.progressToken`; every notification
/// for that request carries it back, and none follows the request's answer.
public struct ProgressNotification: RPCNotification, Hashable, JSONWritable {
    public static let method = "$/progress"
    /// The client's token (a string or a number), as it sent it.
    public var token: JSONValue
    public var value: WorkProgress

    public init(token: JSONValue, value: WorkProgress) {
        self.token = token
        self.value = value
    }

    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("token", token)
            o.member("value", value)
        }
    }
}

/// One step of a request's progress: its `begin` (with a title), `report`s (the fraction done,
/// never going backwards) and its `end`.
public struct WorkProgress: Codable, Hashable, Sendable, JSONWritable {
    public enum Kind: String, Codable, Hashable, Sendable {
        case begin, report, end
    }

    public var kind: Kind
    /// What the work is; `begin` only.
    public var title: String?
    /// What is being done now (`verifying checksum`).
    public var message: String?
    /// 0…1; `report` only.
    public var fraction: Double?
    /// The fraction as a whole percentage, rounded down; `begin` (0) and `report`.
    public var percentage: Int?

    public init(kind: Kind, title: String? = nil, message: String? = nil, fraction: Double? = nil, percentage: Int? = nil) {
        self.kind = kind
        self.title = title
        self.message = message
        self.fraction = fraction
        self.percentage = percentage
    }

    /// Members in the order the engine has always written them: kind, title, message, fraction, percentage.
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("kind", kind.rawValue)
            o.member("title", ifPresent: title)
            o.member("message", ifPresent: message)
            o.member("fraction", ifPresent: fraction)
            o.member("percentage", ifPresent: percentage)
        }
    }
}

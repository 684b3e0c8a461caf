import STOLJSON
/// What a method handler may know and do besides reading its params.
public struct RequestContext: Sendable {
    /// The request's id; nil for a notification.
    public let id: RequestID?
    public let method: String
    /// Present only when the client passed `params._meta.progressToken`.
    public let progress: ProgressReporter?
    let output: OutputWriter
    let session: SessionControls

    /// Sends a notification to the client, such as `favorites/didChange`.
    public func notify(_ method: String, _ params: JSONValue) {
        output.send(Envelope.notification(method: method, params: params))
    }

    /// Sends a notification whose params are any `Encodable` value.
    public func notify<P: Encodable>(_ method: String, encoding params: P) throws {
        output.send(Envelope.notification(method: method, rawParams: try JSONEncoding.encode(params)))
    }

    /// Ends serving when process `pid` dies (`initialize.processId`).
    public func watchParent(_ pid: Int32) {
        session.watchParent(pid)
    }
}

/// What the lifecycle methods may ask of the server that runs them.
struct SessionControls: Sendable {
    var watchParent: @Sendable (Int32) -> Void
}

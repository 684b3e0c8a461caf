import STOLJSON
import STOLProtocol
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

    /// Sends the notification `notification` to the client, ahead of this request's answer.
    public func notify<N: RPCNotification>(_ notification: N) {
        output.send(Envelope.notification(notification))
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

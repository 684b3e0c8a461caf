import STOLRPC

extension RequestContext {
    /// Sends `event` to the client ahead of this request's answer.
    func notify(_ event: EngineEvent) {
        notify(event.method, event.params)
    }
}

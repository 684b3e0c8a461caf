#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import STOLJSON
import STOLProtocol
import STOLSupport

// Execution: each request's one task, from its dependencies to its answer.

extension RPCServer {
    func execute(_ request: Request, method: MethodTable.Method?) async -> [UInt8]? {
        let progress = progressReporter(for: request)
        let outcome: Result<[UInt8], RPCError>
        do {
            // A request may have been cancelled while it waited for its turn.
            try Task.checkCancellation()
            guard let method else { throw RPCError.methodNotFound(request.method) }
            let context = RequestContext(
                id: request.id, method: request.method, progress: progress, output: output,
                session: session.withLock { $0 } ?? SessionControls(watchParent: { _ in }))
            outcome = .success(try await method.run(request.params, context))
        } catch {
            let cancelled = Task.isCancelled
            if RPCError.isUnexpected(error, cancelled: cancelled) { logger.error("\(request.method) failed: \(String(describing: error))") }
            outcome = .failure(RPCError(thrown: error, cancelled: cancelled))
        }
        progress?.close()
        if !options.dialect.answersCancelledRequests, case .failure(let error) = outcome, error == .cancelled, !state.withLock({ $0.stopping }) {
            logger.debug("request \(request.id.map { "\($0)" } ?? "-") (\(request.method)) cancelled by the client; not answered")
            return nil
        }
        guard let id = request.id else {
            if case .failure(let error) = outcome {
                logger.debug("notification \(request.method) failed: \(error.message)")
            }
            return nil
        }
        switch outcome {
        case .success(let bytes): return Envelope.response(id: id, result: bytes)
        case .failure(let error): return Envelope.response(id: id, error: error)
        }
    }

    func progressReporter(for request: Request) -> ProgressReporter? {
        guard request.id != nil, let token = request.params?["_meta"]?["progressToken"] else { return nil }
        switch token {
        case .string, .number: return ProgressReporter(token: token, notation: options.dialect.progressNotation, output: output)
        default: return nil
        }
    }
}

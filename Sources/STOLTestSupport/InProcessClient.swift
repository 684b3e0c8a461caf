import Foundation
import Logging
import STOLClient
import STOLInProcess
import STOLRPC

/// The tests' in-process client: a `STOLClient` over `InProcessTransport`, so the handlers run
/// behind the same server as over stdio (ordering, cancellation, progress, errors) without a
/// process.
public enum InProcessClient {
    /// A client of the methods `methods` makes, served in process.
    public static func serving(_ methods: @escaping @Sendable () throws -> MethodTable) -> STOLClient {
        STOLClient(transport: InProcessTransport(methods: methods, logger: quiet))
    }

    /// A client of a whole engine on `dataDirectory`, in process (the iOS way).
    public static func engine(dataDirectory: URL, databaseFile: URL? = nil) -> STOLClient {
        STOLClient(transport: InProcessTransport(dataDirectory: dataDirectory, databaseFile: databaseFile, logger: quiet))
    }

    /// A logger that drops everything, for engines under test.
    public static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
}

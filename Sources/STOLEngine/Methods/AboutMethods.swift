import STOLProtocol
import STOLRPC

/// `about` and `storage/report`.
enum AboutMethods {
    static func register(in table: inout MethodTable, engine: Engine) {
        table.on(AboutRequest.self) { _, _ in
            AboutInfo(database: await engine.databases.current())
        }
        table.on(StorageReportRequest.self) { _, _ in
            try await StorageReport.make(engine: engine)
        }
    }
}

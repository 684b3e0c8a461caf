import STOLRPC

/// `storage/report`.
enum StorageMethods {
    /// `storage/report`: what the engine keeps on disk, by kind, and what may be deleted.
    enum Report: RPCMethod {
        typealias Result = StorageReport
        static let name = "storage/report"
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        table.on(Report.self) { _, _ in
            try await StorageReport.make(engine: engine)
        }
    }
}

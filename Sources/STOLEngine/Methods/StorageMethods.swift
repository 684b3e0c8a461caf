import STOLRPC

/// `storage/report`.
enum StorageMethods {
    static func register(in table: inout MethodTable, engine: Engine) {
        table.on("storage/report") { (_: NoParams, _) in
            try await StorageReport.make(engine: engine)
        }
    }
}

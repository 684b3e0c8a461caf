import STOLRPC

/// `about`.
enum AboutMethods {
    static func register(in table: inout MethodTable, engine: Engine) {
        table.on("about") { (_: NoParams, _) in
            AboutInfo(database: await engine.databases.current())
        }
    }
}

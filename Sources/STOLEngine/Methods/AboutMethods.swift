import STOLRPC

/// `about`.
enum AboutMethods {
    /// `about`: the engine, the active dataset's license and attribution, and the privacy promise.
    enum About: RPCMethod {
        typealias Result = AboutInfo
        static let name = "about"
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        table.on(About.self) { _, _ in
            AboutInfo(database: await engine.databases.current())
        }
    }
}

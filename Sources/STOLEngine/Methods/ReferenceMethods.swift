import Foundation
import STOLRPC

/// `database/import`, `database/cancelImport`, `database/activateReference`, `database/deactivateReference`.
enum ReferenceMethods {
    struct ImportParams: Decodable, Sendable {
        var path: String
    }

    struct DeactivateParams: Decodable, Sendable {
        var delete: Bool?
    }

    struct DidSwitch: Encodable, Sendable {
        var source: TaxonomyDatabase.Source
        var schemaVersion: Int
        var taxaCount: Int
    }

    struct SwitchResult: Encodable, Sendable {
        var source: TaxonomyDatabase.Source
        var schemaVersion: Int
        var taxaCount: Int
        var isReferenceActive: Bool
        var referenceAvailable: Bool
    }

    /// After every switch: start the new database's LCA index, then tell the client.
    static func didSwitch(_ db: TaxonomyDatabase, _ ctx: RequestContext, engine: Engine) async throws {
        await engine.lca.prepare(db)
        try ctx.notify("database/didSwitch", encoding: DidSwitch(source: db.source, schemaVersion: db.schemaVersion, taxaCount: db.taxaCount))
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let reference = engine.reference
        // Not ordered: an import may take minutes and must not hold up other state changes;
        // the service itself allows one import at a time and refuses switches meanwhile.
        table.on("database/import") { (p: ImportParams, ctx) in
            guard !p.path.isEmpty else { throw RPCError.invalidParams(field: "path", "must be a file path") }
            let progress = ctx.progress
            progress?.begin(title: "Importing reference database", message: p.path)
            let database: TaxonomyDatabase
            do {
                database = try await reference.importDatabase(from: URL(fileURLWithPath: p.path)) { fraction, message in
                    progress?.report(fraction: fraction, message: message)
                }
            } catch {
                progress?.end(message: "failed: \((error as? ReferenceError)?.kind ?? "error")")
                throw error
            }
            progress?.end(message: "imported")
            try await didSwitch(database, ctx, engine: engine)
            return await BrowseMethods.databaseInfo(database, engine: engine)
        }
        table.on("database/cancelImport") { (_: NoParams, _) in
            ["cancelled": await reference.cancelImport()]
        }
        table.on("database/activateReference", ordered: true) { (_: NoParams, ctx) in
            let (database, switched) = try await reference.activate()
            if switched { try await didSwitch(database, ctx, engine: engine) }
            return SwitchResult(source: database.source, schemaVersion: database.schemaVersion, taxaCount: database.taxaCount,
                                isReferenceActive: true, referenceAvailable: true)
        }
        table.on("database/deactivateReference", ordered: true) { (p: DeactivateParams, ctx) in
            let (database, switched) = try await reference.deactivate(delete: p.delete ?? false)
            if switched { try await didSwitch(database, ctx, engine: engine) }
            return SwitchResult(source: database.source, schemaVersion: database.schemaVersion, taxaCount: database.taxaCount,
                                isReferenceActive: false, referenceAvailable: await reference.referenceAvailable)
        }
    }
}

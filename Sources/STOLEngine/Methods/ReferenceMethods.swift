import Foundation
import STOLProtocol
import STOLRPC

/// `database/import`, `database/cancelImport`, `database/activateReference`, `database/deactivateReference`.
enum ReferenceMethods {
    /// After every switch: start the new database's LCA index, then tell the client.
    static func didSwitch(_ db: TaxonomyDatabase, _ ctx: RequestContext, engine: Engine) async throws {
        await engine.lca.prepare(db)
        ctx.notify(DatabaseDidSwitchNotification(switchedTo: db))
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let reference = engine.reference
        table.on(DatabaseImportRequest.self) { p, ctx in
            let file = try Params.absoluteFile(p.path)
            let progress = ctx.progress
            progress?.begin(title: "Importing reference database", message: p.path)
            let database: TaxonomyDatabase
            do {
                database = try await reference.importDatabase(from: file) { fraction, message in
                    progress?.report(fraction: fraction, message: message)
                }
            } catch {
                progress?.end(message: "failed: \((error as? ReferenceError)?.kind.rawValue ?? "error")")
                throw error
            }
            progress?.end(message: "imported")
            try await didSwitch(database, ctx, engine: engine)
            return await BrowseMethods.databaseInfo(database, engine: engine)
        }
        table.on(DatabaseCancelImportRequest.self) { _, _ in
            ImportCancellation(cancelled: await reference.cancelImport())
        }
        table.on(ActivateReferenceRequest.self) { _, ctx in
            let (database, switched) = try await reference.activate()
            if switched { try await didSwitch(database, ctx, engine: engine) }
            return DatabaseSwitch(source: database.source, schemaVersion: database.schemaVersion, taxaCount: database.taxaCount,
                                isReferenceActive: true, referenceAvailable: true)
        }
        table.on(DeactivateReferenceRequest.self) { p, ctx in
            let (database, switched) = try await reference.deactivate(delete: p.delete ?? false)
            if switched { try await didSwitch(database, ctx, engine: engine) }
            return DatabaseSwitch(source: database.source, schemaVersion: database.schemaVersion, taxaCount: database.taxaCount,
                                isReferenceActive: false, referenceAvailable: await reference.referenceAvailable)
        }
    }
}

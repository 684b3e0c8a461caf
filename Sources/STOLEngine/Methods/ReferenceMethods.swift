import Foundation
import STOLRPC

/// `database/import`, `database/cancelImport`, `database/activateReference`, `database/deactivateReference`.
enum ReferenceMethods {
    struct ImportParams: Codable, Sendable {
        var path: String
    }

    struct DeactivateParams: Codable, Sendable {
        var delete: Bool?
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
        ctx.notify(.switched(to: db))
    }

    /// `{"cancelled": …}`.
    struct Cancelled: Encodable, Sendable {
        var cancelled: Bool
    }

    /// What switching the active database changes, for ordering: every switch writes it.
    static let resource = "activeDatabase"

    /// `database/import`: verifies and installs a signed `.stol` file, with progress.
    ///
    /// Not ordered: an import may take minutes and must not hold up other state changes; the
    /// service itself allows one import at a time and refuses switches meanwhile.
    enum Import: RPCMethod {
        typealias Params = ImportParams
        typealias Result = BrowseMethods.DatabaseInfo
        static let name = "database/import"
    }

    /// `database/cancelImport`: stops the import in progress, leaving everything as it was.
    enum CancelImport: RPCMethod {
        typealias Result = Cancelled
        static let name = "database/cancelImport"
    }

    /// `database/activateReference`: switches to the installed reference database.
    enum Activate: RPCMethod {
        typealias Result = SwitchResult
        static let name = "database/activateReference"
        static let ordering = MethodOrdering.writes(resource)
    }

    /// `database/deactivateReference`: switches back to the bundled database, optionally deleting
    /// the reference one.
    enum Deactivate: RPCMethod {
        typealias Params = DeactivateParams
        typealias Result = SwitchResult
        static let name = "database/deactivateReference"
        static let ordering = MethodOrdering.writes(resource)
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        let reference = engine.reference
        table.on(Import.self) { p, ctx in
            let file = try Params.absoluteFile(p.path)
            let progress = ctx.progress
            progress?.begin(title: "Importing reference database", message: p.path)
            let database: TaxonomyDatabase
            do {
                database = try await reference.importDatabase(from: file) { fraction, message in
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
        table.on(CancelImport.self) { _, _ in
            Cancelled(cancelled: await reference.cancelImport())
        }
        table.on(Activate.self) { _, ctx in
            let (database, switched) = try await reference.activate()
            if switched { try await didSwitch(database, ctx, engine: engine) }
            return SwitchResult(source: database.source, schemaVersion: database.schemaVersion, taxaCount: database.taxaCount,
                                isReferenceActive: true, referenceAvailable: true)
        }
        table.on(Deactivate.self) { p, ctx in
            let (database, switched) = try await reference.deactivate(delete: p.delete ?? false)
            if switched { try await didSwitch(database, ctx, engine: engine) }
            return SwitchResult(source: database.source, schemaVersion: database.schemaVersion, taxaCount: database.taxaCount,
                                isReferenceActive: false, referenceAvailable: await reference.referenceAvailable)
        }
    }
}

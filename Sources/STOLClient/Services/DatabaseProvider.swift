import STOLProtocol

/// Manages access to the active species database (the specification's §10.1).
///
/// Differences from the specification: there is no `read(_:)` with a database connection (the
/// database is the engine's, in another process; its methods are the way in); `activeConfig`
/// and `isReferenceDBActive` can throw (the engine may be gone); `DatabaseSource` has no URL
/// (the engine does not tell the app its file layout).
public protocol DatabaseProvider: AnyObject, Sendable {
    /// The currently active database configuration.
    var activeConfig: DatabaseConfig { get async throws }
    /// Whether a reference database is currently active.
    var isReferenceDBActive: Bool { get async throws }
    /// Activate the reference database (must already be imported).
    func activateReferenceDB() async throws
    /// Deactivate and optionally delete the reference database.
    func deactivateReferenceDB(delete: Bool) async throws
}

/// What the active database is.
public struct DatabaseConfig: Sendable, Hashable {
    public let source: DatabaseSource
    public let schemaVersion: Int
    public let taxaCount: Int
    public let sizeBytes: Int64

    public init(source: DatabaseSource, schemaVersion: Int, taxaCount: Int, sizeBytes: Int64) {
        self.source = source
        self.schemaVersion = schemaVersion
        self.taxaCount = taxaCount
        self.sizeBytes = sizeBytes
    }
}

/// `DatabaseProvider` over the engine's `database/info`, `database/activateReference` and
/// `database/deactivateReference`. Switches made here or by another engine on the same data
/// directory come as `DatabaseDidSwitchNotification` (`STOLClient.notifications`).
public final class EngineDatabaseProvider: DatabaseProvider {
    public let client: STOLClient

    public init(client: STOLClient) {
        self.client = client
    }

    public var activeConfig: DatabaseConfig {
        get async throws {
            let info = try await client.send(DatabaseInfoRequest())
            return DatabaseConfig(source: info.source, schemaVersion: info.schemaVersion, taxaCount: info.taxaCount, sizeBytes: info.sizeBytes)
        }
    }

    public var isReferenceDBActive: Bool {
        get async throws { try await client.send(DatabaseInfoRequest()).source == .reference }
    }

    public func activateReferenceDB() async throws {
        _ = try await client.send(ActivateReferenceRequest())
    }

    public func deactivateReferenceDB(delete: Bool) async throws {
        _ = try await client.send(DeactivateReferenceRequest(delete: delete))
    }
}

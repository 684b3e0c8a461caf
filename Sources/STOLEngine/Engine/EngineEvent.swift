import STOLJSON

/// Something the client should hear about without having asked: the active database, the
/// favourites or the diagnostics setting changed (here, or in another engine on the same data
/// directory). Each is one JSON-RPC notification.
public enum EngineEvent: Sendable, Equatable {
    /// `database/didSwitch {source, schemaVersion, taxaCount}`.
    case databaseSwitched(source: TaxonomyDatabase.Source, schemaVersion: Int, taxaCount: Int)
    /// `favorites/didChange {count}`.
    case favoritesChanged(count: Int)
    /// `diagnostics/didChange {enabled}`.
    case diagnosticsChanged(enabled: Bool)

    /// The switch to `database`.
    static func switched(to database: TaxonomyDatabase) -> EngineEvent {
        .databaseSwitched(source: database.source, schemaVersion: database.schemaVersion, taxaCount: database.taxaCount)
    }

    /// The notification's method name.
    public var method: String {
        switch self {
        case .databaseSwitched: "database/didSwitch"
        case .favoritesChanged: "favorites/didChange"
        case .diagnosticsChanged: "diagnostics/didChange"
        }
    }

    /// The notification's params.
    public var params: JSONValue {
        switch self {
        case let .databaseSwitched(source, schemaVersion, taxaCount):
            .object(["schemaVersion": .integer(schemaVersion), "source": .string(source.rawValue), "taxaCount": .integer(taxaCount)])
        case let .favoritesChanged(count):
            .object(["count": .integer(count)])
        case let .diagnosticsChanged(enabled):
            .object(["enabled": .bool(enabled)])
        }
    }
}

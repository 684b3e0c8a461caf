import STOLProtocol

/// Something the client should hear about without having asked: the active database, the
/// favourites or the diagnostics setting changed (here, or in another engine on the same data
/// directory). Each is one of the protocol's notifications.
public enum EngineEvent: Sendable, Equatable {
    /// `database/didSwitch {source, schemaVersion, taxaCount}`.
    case databaseSwitched(DatabaseDidSwitchNotification)
    /// `favorites/didChange {count}`.
    case favoritesChanged(FavoritesDidChangeNotification)
    /// `diagnostics/didChange {enabled}`.
    case diagnosticsChanged(DiagnosticsDidChangeNotification)

    /// The switch to `database`.
    static func switched(to database: TaxonomyDatabase) -> EngineEvent {
        .databaseSwitched(DatabaseDidSwitchNotification(switchedTo: database))
    }
}

extension DatabaseDidSwitchNotification {
    /// The switch to `database`.
    init(switchedTo database: TaxonomyDatabase) {
        self.init(source: database.source, schemaVersion: database.schemaVersion, taxaCount: database.taxaCount)
    }
}

/// Every contract of the protocol, for tools that walk it (the OpenRPC check, a client's tests).
public enum ProtocolCatalog {
    /// Every request, by area.
    public static let requests: [any RPCRequest.Type] = [
        InitializeRequest.self, PingRequest.self, ShutdownRequest.self, DiscoverRequest.self,
        DatabaseInfoRequest.self, DatabaseLanguagesRequest.self,
        TaxonGetRequest.self, TaxonRootsRequest.self, TaxonChildrenRequest.self, TaxonAncestorsRequest.self, TaxonLineagesRequest.self,
        TaxonNamesRequest.self, TaxonTraitsRequest.self, TaxonReferencesRequest.self, TaxonDetailRequest.self,
        SearchQueryRequest.self, SearchAutocompleteRequest.self,
        CompareTaxaRequest.self, CompareLCARequest.self, CompareRelativesRequest.self, CompareStatsRequest.self,
        FavoritesAddRequest.self, FavoritesRemoveRequest.self, FavoritesToggleRequest.self, FavoritesClearRequest.self,
        FavoritesContainsRequest.self, FavoritesCountRequest.self, FavoritesStorageBytesRequest.self, FavoritesStatusRequest.self,
        FavoritesListRequest.self, FavoritesExportRequest.self,
        DatabaseImportRequest.self, DatabaseCancelImportRequest.self, ActivateReferenceRequest.self, DeactivateReferenceRequest.self,
        AboutRequest.self, StorageReportRequest.self,
        DiagnosticsSetEnabledRequest.self, DiagnosticsStatusRequest.self, DiagnosticsExportRequest.self, DiagnosticsDeleteRequest.self,
        MediaImportRequest.self, MediaCancelImportRequest.self, MediaPacksRequest.self, MediaImageRequest.self, MediaDeletePackRequest.self,
    ]

    /// Every notification: those a client sends, then those the engine sends.
    public static let notifications: [any RPCNotification.Type] = [
        InitializedNotification.self, ExitNotification.self, CancelRequestNotification.self,
        ProgressNotification.self, DatabaseDidSwitchNotification.self, FavoritesDidChangeNotification.self,
        DiagnosticsDidChangeNotification.self,
    ]
}

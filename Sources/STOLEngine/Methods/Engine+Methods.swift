import STOLRPC

extension Engine {
    /// Every method the engine serves.
    public func methods() -> MethodTable {
        var table = MethodTable()
        BrowseMethods.register(in: &table, engine: self)
        FavoritesMethods.register(in: &table, engine: self)
        SearchMethods.register(in: &table, engine: self)
        CompareMethods.register(in: &table, engine: self)
        ReferenceMethods.register(in: &table, engine: self)
        AboutMethods.register(in: &table, engine: self)
        DiagnosticsMethods.register(in: &table, engine: self)
        MediaMethods.register(in: &table, engine: self)
        return table
    }
}

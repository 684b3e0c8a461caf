import STOLRPC

// The range of every integer param, declared once: decoding checks it before a handler runs, with
// a message that names it, and `openrpc.json` gives it as `minimum` and `maximum` (generated).

extension Params {
    /// Taxon ids: positive JSON integers below 2^53, so JavaScript clients read them exactly.
    static let taxonIDs = TaxonomyLimits.taxonIDs
}

extension BrowseMethods.IDParams: BoundedParams {
    static let integerBounds = ["id": Params.taxonIDs]
}

extension BrowseMethods.TaxonIDParams: BoundedParams {
    static let integerBounds = ["id": Params.taxonIDs]
}

extension BrowseMethods.ChildrenParams: BoundedParams {
    static let integerBounds: [String: ClosedRange<Int64>] = ["id": Params.taxonIDs, "limit": 1...1000]
}

extension BrowseMethods.LineagesParams: BoundedParams {
    static let integerBounds = ["ids.*": Params.taxonIDs]
}

extension SearchMethods.QueryParams: BoundedParams {
    static let integerBounds: [String: ClosedRange<Int64>] = ["within": Params.taxonIDs, "limit": 1...1000, "offset": 0...Int64(SearchMethods.maxOffset)]
}

extension SearchMethods.AutocompleteParams: BoundedParams {
    static let integerBounds: [String: ClosedRange<Int64>] = ["limit": 1...20]
}

extension CompareMethods.TaxaParams: BoundedParams {
    static let integerBounds = ["a": Params.taxonIDs, "b": Params.taxonIDs]
}

extension CompareMethods.LCAParams: BoundedParams {
    static let integerBounds = ["pairs.*.*": Params.taxonIDs]
}

extension CompareMethods.RelativesParams: BoundedParams {
    static let integerBounds: [String: ClosedRange<Int64>] = ["id": Params.taxonIDs, "n": 1...100, "maxCandidates": 1...10_000_000]
}

extension FavoritesMethods.IDParams: BoundedParams {
    static let integerBounds = ["taxonId": Params.taxonIDs]
}

extension FavoritesMethods.IDsParams: BoundedParams {
    static let integerBounds = ["taxonId": Params.taxonIDs, "taxonIds.*": Params.taxonIDs]
}

extension MediaMethods.ImageParams: BoundedParams {
    static let integerBounds = ["taxonId": Params.taxonIDs, "taxonIds.*": Params.taxonIDs]
}

extension DetailPage.Request: BoundedParams {
    static let integerBounds = ["id": Params.taxonIDs]
}

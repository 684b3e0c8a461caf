// The range of every integer param, declared once: the engine's decoding checks it before a
// handler runs, with a message that names it, and `openrpc.json` gives it as `minimum` and
// `maximum` (generated). A client may check them before sending.

extension IntegerBounds {
    /// Taxon ids: positive JSON integers below 2^53, so JavaScript clients read them exactly.
    public static let taxonIDs: ClosedRange<Int64> = 1...((1 << 53) - 1)
}

extension TaxonGetRequest: BoundedParams {
    public static let integerBounds = ["id": IntegerBounds.taxonIDs]
}

extension TaxonAncestorsRequest: BoundedParams {
    public static let integerBounds = ["id": IntegerBounds.taxonIDs]
}

extension TaxonNamesRequest: BoundedParams {
    public static let integerBounds = ["id": IntegerBounds.taxonIDs]
}

extension TaxonTraitsRequest: BoundedParams {
    public static let integerBounds = ["id": IntegerBounds.taxonIDs]
}

extension TaxonReferencesRequest: BoundedParams {
    public static let integerBounds = ["id": IntegerBounds.taxonIDs]
}

extension TaxonChildrenRequest: BoundedParams {
    public static let integerBounds: [String: ClosedRange<Int64>] = ["id": IntegerBounds.taxonIDs, "limit": 1...1000]
}

extension TaxonLineagesRequest: BoundedParams {
    public static let integerBounds = ["ids.*": IntegerBounds.taxonIDs]
}

extension SearchQueryRequest: BoundedParams {
    public static let integerBounds: [String: ClosedRange<Int64>] = ["within": IntegerBounds.taxonIDs, "limit": 1...1000, "offset": 0...10_000]
}

extension SearchAutocompleteRequest: BoundedParams {
    public static let integerBounds: [String: ClosedRange<Int64>] = ["limit": 1...20]
}

extension CompareTaxaRequest: BoundedParams {
    public static let integerBounds = ["a": IntegerBounds.taxonIDs, "b": IntegerBounds.taxonIDs]
}

extension CompareLCARequest: BoundedParams {
    public static let integerBounds = ["pairs.*.*": IntegerBounds.taxonIDs]
}

extension CompareRelativesRequest: BoundedParams {
    public static let integerBounds: [String: ClosedRange<Int64>] = ["id": IntegerBounds.taxonIDs, "n": 1...100, "maxCandidates": 1...10_000_000]
}

extension FavoritesAddRequest: BoundedParams {
    public static let integerBounds = ["taxonId": IntegerBounds.taxonIDs]
}

extension FavoritesToggleRequest: BoundedParams {
    public static let integerBounds = ["taxonId": IntegerBounds.taxonIDs]
}

extension FavoritesRemoveRequest: BoundedParams {
    public static let integerBounds = ["taxonId": IntegerBounds.taxonIDs, "taxonIds.*": IntegerBounds.taxonIDs]
}

extension FavoritesContainsRequest: BoundedParams {
    public static let integerBounds = ["taxonId": IntegerBounds.taxonIDs, "taxonIds.*": IntegerBounds.taxonIDs]
}

extension MediaImageRequest: BoundedParams {
    public static let integerBounds = ["taxonId": IntegerBounds.taxonIDs, "taxonIds.*": IntegerBounds.taxonIDs]
}

extension TaxonDetailRequest: BoundedParams {
    public static let integerBounds = ["id": IntegerBounds.taxonIDs]
}

/// A request that names one taxon (`taxonId`) or a list of them (`taxonIds`): exactly one of the
/// two, which the engine checks.
public protocol OneOrManyTaxa: RPCRequest {
    var taxonId: TaxonID? { get set }
    var taxonIds: [TaxonID]? { get set }
    /// Neither given.
    init()
}

extension OneOrManyTaxa {
    /// One taxon.
    public init(taxonId: TaxonID) {
        self.init()
        self.taxonId = taxonId
    }

    /// A list of taxa.
    public init(taxonIds: [TaxonID]) {
        self.init()
        self.taxonIds = taxonIds
    }
}

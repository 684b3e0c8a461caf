import STOLProtocol

extension SharedClade {
    /// The clade `lca` of `a` and `b`.
    init(a: Taxon, b: Taxon, lca: Taxon) {
        self.init(
            id: lca.id, rank: lca.rank, scientificName: lca.scientificName, preferredCommonName: lca.preferredCommonName,
            preferredCommonNameLang: lca.preferredCommonNameLang,
            relation: a.id == b.id ? .sameTaxon : lca.id == a.id ? .bWithinA : lca.id == b.id ? .aWithinB : .bothWithin)
    }
}

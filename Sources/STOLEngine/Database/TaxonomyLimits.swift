import STOLProtocol

/// The limits the engine holds a taxonomy database to, at import and when it serves.
public enum TaxonomyLimits {
    /// The deepest taxon served whole: a lineage has at most this many ancestors. Import refuses
    /// a deeper tree (NCBI's, folded onto the eight ranks, is 7 levels deep below its roots; Open
    /// Tree's unranked synthesis, `nodes.tsv.gz`, 83).
    public static let maxDepth = 10_000
    /// Taxon ids, as the protocol carries them: positive and below 2^53 (JavaScript reads them exactly).
    public static let taxonIDs = IntegerBounds.taxonIDs
}

import STOLRPC

/// `compare/taxa`, `compare/lca`, `compare/relatives` and `compare/stats`.
enum CompareMethods {
    struct TaxaParams: Codable, Sendable {
        var a: Int64
        var b: Int64
        var lang: String?
        var includeTraitSimilarity: Bool?
    }

    struct LCAParams: Codable, Sendable {
        var pairs: [[Int64]]
    }

    struct RelativesParams: Codable, Sendable {
        var id: Int64
        var n: Int?
        var source: String?
        var maxCandidates: Int?
        var lang: String?
    }

    /// `compare/taxa`: how two taxa are related: LCA, distance, paths, shared clade, traits.
    enum Taxa: RPCMethod {
        typealias Params = TaxaParams
        typealias Result = TaxaComparison
        static let name = "compare/taxa"
    }

    /// `compare/lca`: the lowest common ancestor of each pair, from the in-memory index.
    enum LowestCommonAncestors: RPCMethod {
        typealias Params = LCAParams
        typealias Result = LCABatch
        static let name = "compare/lca"
    }

    /// `compare/relatives`: a species' closest relatives.
    enum Relatives: RPCMethod {
        typealias Params = RelativesParams
        typealias Result = RelativesResult
        static let name = "compare/relatives"
    }

    /// `compare/stats`: the state of the LCA index.
    enum Stats: RPCMethod {
        typealias Result = LCAService.Stats
        static let name = "compare/stats"
    }

    static func register(in table: inout MethodTable, engine: Engine) {
        table.on(Taxa.self) { p, _ in
            try await engine.compare.compare(
                try Params.taxonID(p.a, field: "a"), try Params.taxonID(p.b, field: "b"), lang: try Params.language(p.lang),
                includeTraitSimilarity: p.includeTraitSimilarity ?? true)
        }
        table.on(LowestCommonAncestors.self) { p, _ in
            guard p.pairs.count <= CompareService.maxLCAPairs else {
                throw RPCError.invalidParams(field: "pairs", "must hold at most \(CompareService.maxLCAPairs) pairs; split the batch")
            }
            let pairs = try p.pairs.enumerated().map { i, pair -> (Int64, Int64) in
                guard pair.count == 2 else { throw RPCError.invalidParams(field: "pairs.\(i)", "must be a pair of taxon ids, [a, b]") }
                return (try Params.taxonID(pair[0], field: "pairs.\(i).0"), try Params.taxonID(pair[1], field: "pairs.\(i).1"))
            }
            return try await engine.compare.lcas(pairs)
        }
        table.on(Relatives.self) { p, _ in
            let source: RelativesSource
            if let raw = p.source {
                guard let parsed = RelativesSource(rawValue: raw) else { throw RPCError.invalidParams(field: "source", "must be precomputed or computed") }
                source = parsed
            } else {
                source = .precomputed
            }
            return try await engine.compare.relatives(
                of: try Params.taxonID(p.id), n: try Params.limit(p.n, default: 10, max: 100, field: "n"), source: source,
                maxCandidates: try Params.limit(p.maxCandidates, default: 5000, max: 10_000_000, field: "maxCandidates"),
                lang: try Params.language(p.lang))
        }
        table.on(Stats.self) { _, _ in
            await engine.lca.stats(for: await engine.databases.current())
        }
    }
}

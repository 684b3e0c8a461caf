import STOLProtocol
import STOLRPC

/// `compare/taxa`, `compare/lca`, `compare/relatives` and `compare/stats`.
enum CompareMethods {
    static func register(in table: inout MethodTable, engine: Engine) {
        table.on(CompareTaxaRequest.self) { p, _ in
            try await engine.compare.compare(
                try Params.taxonID(p.a, field: "a"), try Params.taxonID(p.b, field: "b"), lang: try Params.language(p.lang),
                includeTraitSimilarity: p.includeTraitSimilarity ?? true)
        }
        table.on(CompareLCARequest.self) { p, _ in
            guard p.pairs.count <= CompareService.maxLCAPairs else {
                throw RPCError.invalidParams(field: "pairs", "must hold at most \(CompareService.maxLCAPairs) pairs; split the batch")
            }
            let pairs = try p.pairs.enumerated().map { i, pair -> (Int64, Int64) in
                guard pair.count == 2 else { throw RPCError.invalidParams(field: "pairs.\(i)", "must be a pair of taxon ids, [a, b]") }
                return (try Params.taxonID(pair[0], field: "pairs.\(i).0"), try Params.taxonID(pair[1], field: "pairs.\(i).1"))
            }
            return try await engine.compare.lcas(pairs)
        }
        table.on(CompareRelativesRequest.self) { p, _ in
            try await engine.compare.relatives(
                of: try Params.taxonID(p.id), n: try Params.limit(p.n, default: 10, max: 100, field: "n"), source: p.source ?? .precomputed,
                maxCandidates: try Params.limit(p.maxCandidates, default: 5000, max: 10_000_000, field: "maxCandidates"),
                lang: try Params.language(p.lang))
        }
        table.on(CompareStatsRequest.self) { _, _ in
            await engine.lca.stats(for: await engine.databases.current())
        }
    }
}

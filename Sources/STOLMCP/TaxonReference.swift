import STOLJSON
import STOLProtocol
import STOLRPC

/// A taxon as a tool call names it: an id, or a scientific or common name.
enum TaxonReference: Sendable, Equatable {
    case id(Int64)
    case name(String)

    /// The taxon's id. A name must match one taxon's name exactly (accents aside); several such
    /// taxa are ambiguous and none is unknown, and both are told to the model with candidates,
    /// except a group and its member sharing a common name, which mean the member (the species).
    func resolve(in table: MethodTable, context: RequestContext, language: String) async throws -> Int64 {
        switch self {
        case .id(let id):
            guard id > 0, id < (1 << 53) else { throw MCPToolError(message: "\(id) is not a taxon id: ids are positive integers") }
            return id
        case .name(let name):
            let found = try await table.call(SearchQueryRequest(query: name, lang: language, limit: 10), context: context)
            // A name as written, not as the lexicon reads it (`puppy` is no taxon's name).
            let exact = found.results.filter { ["exact", "exact-folded"].contains($0.matchTier ?? "") && $0.readAs == nil }
            if exact.count == 1 { return exact[0].id }
            if let id = Self.memberOfOneLineage(exact) { return id }
            if exact.count > 1 {
                throw MCPToolError(
                    message: "\(ToolText.quoted(name)) names \(exact.count) taxa; ask which one is meant, then call again with its id: "
                        + exact.map(Self.describe).joined(separator: "; "),
                    detail: .object(["reason": "ambiguous", "query": .string(name), "candidates": .array(exact.map(Self.candidate))]))
            }
            let close = Array(found.results.prefix(5))
            let hint = close.isEmpty ? "nothing close either" : "closest: " + close.map(Self.describe).joined(separator: "; ")
            throw MCPToolError(
                message: "No taxon is named \(ToolText.quoted(name)) in this database (\(hint)).",
                detail: .object(["reason": "unknown", "query": .string(name), "candidates": .array(close.map(Self.candidate))]))
        }
    }

    /// When every exact match shares its common name with another of them up or down one
    /// lineage (`sharedName`: "Koala" the family and "Koala" its species), the lowest-ranked: a
    /// name that means a group and its member means the member. Nil otherwise.
    static func memberOfOneLineage(_ exact: [SearchResult]) -> Int64? {
        guard exact.count > 1 else { return nil }
        let ids = Set(exact.map(\.id))
        let linked = exact.allSatisfy { result in
            let other = result.sharedName?.namedFor?.id ?? result.sharedName?.group?.id
            return other.map(ids.contains) ?? false
        }
        guard linked else { return nil }
        let level: (SearchResult) -> Int = { $0.rank?.level ?? -1 }
        let lowest = exact.max { level($0) < level($1) }
        return lowest.flatMap { level($0) == Rank.species.level ? $0.id : nil }
    }

    /// `"Panthera leo" (species), id 123, "Lion"`, or `"Morus (genus in Aves)", id 456` for a
    /// homonym; names are quoted strings (`ToolText`).
    private static func describe(_ result: SearchResult) -> String {
        var text = result.disambiguation.map { ToolText.quoted($0.display) }
            ?? ToolText.quoted(result.scientificName) + (result.rank.map { " (\($0.rawValue))" } ?? "")
        text += ", id \(result.id)"
        if let common = result.preferredCommonName { text += ", \(ToolText.quoted(common))" }
        return text
    }

    /// A candidate as the model is given it: the result's identifying members, in this order.
    private static func candidate(_ result: SearchResult) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", .integer(result.id)), ("scientificName", .string(result.scientificName))]
        if let rank = result.rank { members.append(("rank", .string(rank.rawValue))) }
        if let common = result.preferredCommonName { members.append(("preferredCommonName", .string(common))) }
        if let disambiguation = result.disambiguation, let value = try? JSONEncoding.value(of: disambiguation) { members.append(("disambiguation", value)) }
        if let shared = result.sharedName, let value = try? JSONEncoding.value(of: shared) { members.append(("sharedName", value)) }
        members.append(("matchedName", .string(result.matchedName)))
        return .object(members)
    }
}

import STOLRPC
import STOLJSON

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
            var params = SearchMethods.QueryParams()
            params.query = name
            params.lang = language
            params.limit = 10
            let found = try await table.call(SearchMethods.Query.self, params, context: context)
            let results = found["results"]?.arrayValue ?? []
            let exact = results.filter { ["exact", "exact-folded"].contains($0["matchTier"]?.stringValue ?? "") }
            if exact.count == 1, let id = exact[0]["id"]?.int64Value { return id }
            if let id = Self.memberOfOneLineage(exact) { return id }
            if exact.count > 1 {
                throw MCPToolError(
                    message: "\"\(name)\" names \(exact.count) taxa; ask which one is meant, then call again with its id: "
                        + exact.map(Self.describe).joined(separator: "; "),
                    detail: .object(["reason": "ambiguous", "query": .string(name), "candidates": .array(exact.map(Self.candidate))]))
            }
            let close = Array(results.prefix(5))
            let hint = close.isEmpty ? "nothing close either" : "closest: " + close.map(Self.describe).joined(separator: "; ")
            throw MCPToolError(
                message: "No taxon is named \"\(name)\" in this database (\(hint)).",
                detail: .object(["reason": "unknown", "query": .string(name), "candidates": .array(close.map(Self.candidate))]))
        }
    }

    /// When every exact match shares its common name with another of them up or down one
    /// lineage (`sharedName`: "Koala" the family and "Koala" its species), the lowest-ranked: a
    /// name that means a group and its member means the member. Nil otherwise.
    static func memberOfOneLineage(_ exact: [JSONValue]) -> Int64? {
        guard exact.count > 1 else { return nil }
        let ids = Set(exact.compactMap { $0["id"]?.int64Value })
        let linked = exact.allSatisfy { result in
            let other = result["sharedName"]?["namedFor"]?["id"] ?? result["sharedName"]?["group"]?["id"]
            return other?.int64Value.map(ids.contains) ?? false
        }
        guard linked else { return nil }
        let level: (JSONValue) -> Int = { result in result["rank"]?.stringValue.flatMap(Rank.init(rawValue:))?.level ?? -1 }
        let lowest = exact.max { level($0) < level($1) }
        return lowest.flatMap { level($0) == Rank.species.level ? $0["id"]?.int64Value : nil }
    }

    /// `Panthera leo (species), id 123, "Lion"`, or `Morus (genus in Aves), id 456` for a homonym.
    private static func describe(_ result: JSONValue) -> String {
        var text = result["disambiguation"]?["display"]?.stringValue
            ?? (result["scientificName"]?.stringValue ?? "?") + (result["rank"]?.stringValue.map { " (\($0))" } ?? "")
        if let id = result["id"]?.int64Value { text += ", id \(id)" }
        if let common = result["preferredCommonName"]?.stringValue { text += ", \"\(common)\"" }
        return text
    }

    private static func candidate(_ result: JSONValue) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("id", result["id"] ?? .null), ("scientificName", result["scientificName"] ?? .null)]
        for key in ["rank", "preferredCommonName", "disambiguation", "sharedName", "matchedName"] {
            if let value = result[key] { members.append((key, value)) }
        }
        return .object(members)
    }
}

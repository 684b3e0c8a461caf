import STOLJSON

/// Which is which when a group and one of its members go by the same common name: "Koala" is
/// both the family Phascolarctidae and its one species, *Phascolarctos cinereus*. Present only
/// on such taxa, in search results and `taxon/detail`.
public struct SharedName: Codable, Hashable, Sendable {
    /// `group` for the taxon above, `member` for the one below.
    public enum Role: String, Codable, Hashable, Sendable {
        case group, member
    }

    /// A taxon named by a `SharedName`.
    public struct Other: Codable, Hashable, Sendable {
        public var id: TaxonID
        public var scientificName: String
        public var rank: Rank?

        public init(id: TaxonID, scientificName: String, rank: Rank?) {
            self.id = id
            self.scientificName = scientificName
            self.rank = rank
        }
    }

    /// The common name both bear, as this taxon shows it.
    public var name: String
    public var role: Role
    /// For a group: the member it shares its name with (the lowest-ranked, a species when one is).
    public var namedFor: Other?
    /// For a member: the nearest group above it that shares its name.
    public var group: Other?
    /// The form to show: `Koala (family Phascolarctidae, named for Phascolarctos cinereus)` or
    /// `Koala (species Phascolarctos cinereus)`.
    public var display: String
    public init(name: String, role: Role, namedFor: Other? = nil, group: Other? = nil, display: String) {
        self.name = name
        self.role = role
        self.namedFor = namedFor
        self.group = group
        self.display = display
    }
}

extension SharedName: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("display", display)
            o.member("group", ifPresent: group)
            o.member("name", name)
            o.member("namedFor", ifPresent: namedFor)
            o.member("role", role.rawValue)
        }
    }
}

extension SharedName.Other: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("id", id)
            o.member("rank", ifPresent: rank?.rawValue)
            o.member("scientificName", scientificName)
        }
    }
}

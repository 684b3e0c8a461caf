import STOLJSON

// `compare/taxa` writes its own JSON: through `JSONEncoder`, its 60-odd taxa on Open Tree cost more
// than reading them. Members go in sorted key order, as `JSONEncoder` with `.sortedKeys` writes
// them (`TaxonJSONTests` compares the two).

extension TaxaComparison: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("a", a)
            o.member("b", b)
            o.member("lca", lca)
            o.member("pathFromA", pathFromA)
            o.member("pathFromB", pathFromB)
            o.member("sharedClade", sharedClade)
            o.member("sharedCladeDescription", sharedCladeDescription)
            o.member("taxonomicDistance", taxonomicDistance)
            o.member("traitDeltas", traitDeltas)
            // Null, not omitted, when absent.
            o.member("traitSimilarity", traitSimilarity)
        }
    }
}

extension SharedClade: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("id", id)
            o.member("preferredCommonName", ifPresent: preferredCommonName)
            o.member("preferredCommonNameLang", ifPresent: preferredCommonNameLang)
            o.member("rank", ifPresent: rank?.rawValue)
            o.member("relation", relation.rawValue)
            o.member("scientificName", scientificName)
        }
    }
}

extension TraitDelta: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("key", key)
            o.member("onlyA", onlyA)
            o.member("onlyB", onlyB)
            o.member("shared", shared)
        }
    }
}

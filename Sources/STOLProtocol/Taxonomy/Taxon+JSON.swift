import STOLJSON

// The browse answers write their own JSON: `JSONEncoder` was most of the cost of `taxon/get` and
// of a lineage's 30-odd taxa. Members go in sorted key order, absent optionals are left out, as
// `JSONEncoder` with `.sortedKeys` writes them (`TaxonJSONTests` compares the two).

extension Taxon: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("author", ifPresent: author)
            o.member("childCount", ifPresent: childCount)
            o.member("conservationStatus", ifPresent: conservationStatus?.rawValue)
            o.member("disambiguation", ifPresent: disambiguation)
            o.member("id", id)
            o.member("parentId", ifPresent: parentId)
            o.member("preferredCommonName", ifPresent: preferredCommonName)
            o.member("preferredCommonNameLang", ifPresent: preferredCommonNameLang)
            o.member("rank", ifPresent: rank?.rawValue)
            o.member("scientificName", scientificName)
            o.member("status", status.rawValue)
            o.member("year", ifPresent: year)
        }
    }
}

extension Disambiguation: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("ancestorId", ifPresent: ancestorId)
            o.member("ancestorName", ifPresent: ancestorName)
            o.member("ancestorRank", ifPresent: ancestorRank?.rawValue)
            o.member("display", display)
        }
    }
}

extension TaxonName: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("isPreferred", isPreferred)
            o.member("lang", lang)
            o.member("name", name)
            o.member("source", ifPresent: source)
            o.member("type", type.rawValue)
        }
    }
}

extension Trait: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("key", key)
            o.member("label", ifPresent: label)
            o.member("source", ifPresent: source)
            o.member("translated", ifPresent: translated)
            o.member("unit", ifPresent: unit)
            o.member("value", value)
        }
    }
}

extension Reference: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("citation", citation)
            o.member("type", type)
            o.member("url", ifPresent: url)
        }
    }
}

extension TaxonDetail: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("childCount", childCount)
            o.member("description", ifPresent: description)
            o.member("lineage", lineage)
            o.member("names", names)
            o.member("preferredCommonName", ifPresent: preferredCommonName)
            o.member("preferredCommonNameLang", ifPresent: preferredCommonNameLang)
            o.member("references", references)
            o.member("sharedName", ifPresent: sharedName)
            o.member("synonyms", synonyms)
            o.member("taxon", taxon)
            o.member("traits", traits)
        }
    }
}

extension TaxonDescription: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { o in
            o.member("lang", lang)
            o.member("license", ifPresent: license)
            o.member("sourceName", ifPresent: sourceName)
            o.member("sourceTitle", ifPresent: sourceTitle)
            o.member("sourceUrl", ifPresent: sourceUrl)
            o.member("text", text)
        }
    }
}

import Foundation
import STOLProtocol
import STOLRPC

/// Checks shared by every method's params; each failure names its field.
enum Params {
    /// Taxon ids are positive JSON integers below 2^53 (`IntegerBounds.taxonIDs`; decoding checks them first,
    /// through `BoundedParams`).
    static func taxonID(_ value: Int64, field: String = "id") throws -> Int64 {
        guard IntegerBounds.taxonIDs.contains(value) else { throw RPCError.invalidParams(field: field, IntegerBounds.outOfRange(IntegerBounds.taxonIDs)) }
        return value
    }

    /// A BCP-47 language tag such as `en`, `es` or `pt-BR`, in its canonical form (`BCP47.canonical`:
    /// `EN`, `de_DE` and `de-de` are taken as `en` and `de-DE`); English when absent. Answers fall
    /// back from a regional tag to its language (`de-DE` → `de`) where they pick names.
    static func language(_ value: String?, field: String = "lang") throws -> String {
        guard let value else { return "en" }
        guard let tag = BCP47.canonical(value) else {
            throw RPCError.invalidParams(field: field, "must be a language tag such as en, es, pt-BR or de_DE")
        }
        return tag
    }

    static func limit(_ value: Int?, default fallback: Int, max maximum: Int, field: String = "limit") throws -> Int {
        guard let value else { return fallback }
        guard (1...maximum).contains(value) else { throw RPCError.invalidParams(field: field, IntegerBounds.outOfRange(1...Int64(maximum))) }
        return value
    }

    /// A file the engine is asked to read: an absolute path. The engine's working directory is
    /// not the app's and it expands no `~`, so a relative path is refused rather than guessed.
    static func absoluteFile(_ value: String, field: String = "path") throws -> URL {
        guard !value.isEmpty else { throw RPCError.invalidParams(field: field, "must be a file path") }
        guard value.hasPrefix("/") else {
            let hint = value.hasPrefix("~") ? "the engine does not expand ~" : "resolve it against your own working directory"
            throw RPCError.invalidParams(field: field, "must be an absolute path (\(hint))")
        }
        return URL(fileURLWithPath: value)
    }

    /// The ids `request` names (`single` when `taxonId` named one), each checked; a list may be
    /// refused when empty, and over `maxCount`.
    static func taxonIDs(_ request: some OneOrManyTaxa, allowsEmpty: Bool = true, maxCount: Int? = nil) throws -> (ids: [Int64], single: Bool) {
        switch (request.taxonId, request.taxonIds) {
        case (let id?, nil):
            return ([try taxonID(id, field: "taxonId")], true)
        case (nil, let ids?):
            if !allowsEmpty, ids.isEmpty { throw RPCError.invalidParams(field: "taxonIds", "must hold at least one taxon id") }
            if let maxCount, ids.count > maxCount {
                throw RPCError.invalidParams(field: "taxonIds", "holds \(ids.count) ids; at most \(maxCount) per call: split the list",
                                             ["limit": .integer(maxCount), "count": .integer(ids.count)])
            }
            return (try ids.enumerated().map { try taxonID($1, field: "taxonIds.\($0)") }, false)
        case (nil, nil):
            throw RPCError.invalidParams(field: "taxonId", "is required (or taxonIds)")
        case (_?, _?):
            throw RPCError.invalidParams(field: "taxonIds", "give taxonId or taxonIds, not both")
        }
    }
}

import Foundation
import STOLProtocol

/// How two taxa's traits compare (`compare/taxa`): per key, the values both share and those only
/// one has, and a similarity figure.
///
/// Values are free text, so they are compared as **terms**: a value (with its unit) loses its
/// parenthetical remarks and is split at `,` `;` `/` ` and ` ` or `; each piece is folded (lower
/// case, no diacritics, single spaces, English plurals to singular) and a measurement is converted
/// to its SI base unit (`140–250 cm` = `1.4–2.5 m`). Keys are folded alike, `_` read as a space, and
/// a unit ending the key (`body_length_mm`) moves to its numeric values.
public enum TraitComparison {
    /// One term of a trait: shown as written, compared by its normal form.
    struct Term: Equatable {
        var display: String
        var normal: String
    }

    /// Per key (in order of the folded key), shared and one-sided terms; and the Jaccard index of
    /// the two sets of (key, term) pairs, nil when either taxon has no traits.
    public static func compare(_ a: [Trait], _ b: [Trait]) -> (deltas: [TraitDelta], similarity: Double?) {
        let x = terms(a), y = terms(b)
        var deltas: [TraitDelta] = []
        var shared = 0, union = 0
        for key in Set(x.keys).union(y.keys).sorted() {
            let ta = x[key]?.terms ?? [], tb = y[key]?.terms ?? []
            let inB = Set(tb.map(\.normal)), inA = Set(ta.map(\.normal))
            let delta = TraitDelta(
                key: x[key]?.display ?? y[key]?.display ?? key,
                shared: ta.filter { inB.contains($0.normal) }.map(\.display),
                onlyA: ta.filter { !inB.contains($0.normal) }.map(\.display),
                onlyB: tb.filter { !inA.contains($0.normal) }.map(\.display))
            shared += delta.shared.count
            union += delta.shared.count + delta.onlyA.count + delta.onlyB.count
            deltas.append(delta)
        }
        guard !a.isEmpty, !b.isEmpty, union > 0 else { return (deltas, nil) }
        return (deltas, Double(shared) / Double(union))
    }

    /// Traits grouped by folded key, each key's distinct terms in order.
    static func terms(_ traits: [Trait]) -> [String: (display: String, terms: [Term])] {
        var out: [String: (display: String, terms: [Term])] = [:]
        for trait in traits {
            var (key, unit) = (fold(trait.key.replacingOccurrences(of: "_", with: " ")), trait.unit)
            if unit == nil, let last = key.split(separator: " ").last, key.contains(" "), TraitUnit.units[String(last)] != nil,
               Double(trait.value.trimmingCharacters(in: .whitespaces)) != nil {
                unit = String(last)
                key = String(key.dropLast(last.count + 1))
            }
            var entry = out[key] ?? (trait.key, [])
            for term in terms(of: trait.value + (unit.map { " " + $0 } ?? "")) where !entry.terms.contains(where: { $0.normal == term.normal }) {
                entry.terms.append(term)
            }
            out[key] = entry
        }
        return out
    }

    /// The terms of one value (with its unit appended).
    static func terms(of value: String) -> [Term] {
        if let measurement = TraitUnit.normalised(value) { return [Term(display: value.trimmingCharacters(in: .whitespaces), normal: measurement)] }
        var text = ""
        var depth = 0
        for c in value {
            if c == "(" || c == "[" { depth += 1 } else if c == ")" || c == "]" { depth = max(0, depth - 1) } else if depth == 0 { text.append(c) }
        }
        for separator in [" and ", " or ", ";", "/"] { text = text.replacingOccurrences(of: separator, with: ",") }
        return text.split(separator: ",").compactMap { piece in
            let display = piece.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !display.isEmpty else { return nil }
            if let measurement = TraitUnit.normalised(display) { return Term(display: display, normal: measurement) }
            let words = fold(display).split(separator: " ").map { word in Inflection.lemmas(String(word), lang: "en").min() ?? String(word) }
            return Term(display: display, normal: words.joined(separator: " "))
        }
    }

    /// Lower case, no diacritics, single spaces.
    static func fold(_ text: String) -> String {
        TextFolding.fold(text).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

import Foundation

/// Units of numeric trait values: splitting "1.4–2.5 m" into value and unit when a database is
/// built, and converting a measurement to its SI base unit when traits are compared.
public enum TraitUnit {
    /// Known units by spelling: the base unit and the factor to it. Lengths in metres, masses in
    /// kilograms, durations in years (as the sources give lifespans).
    static let units: [String: (base: String, factor: Double)] = [
        "mm": ("m", 0.001), "cm": ("m", 0.01), "m": ("m", 1), "km": ("m", 1000),
        "mg": ("kg", 1e-6), "g": ("kg", 0.001), "kg": ("kg", 1), "t": ("kg", 1000),
        "d": ("years", 1 / 365.25), "day": ("years", 1 / 365.25), "days": ("years", 1 / 365.25),
        "month": ("years", 1.0 / 12), "months": ("years", 1.0 / 12),
        "y": ("years", 1), "yr": ("years", 1), "yrs": ("years", 1), "year": ("years", 1), "years": ("years", 1),
    ]

    /// A number or a range of two ("1.4", "1.4–2.5", "10-12"), then optional space and a unit.
    private static func parse(_ text: String) -> (low: Double, high: Double, number: String, unit: String)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let lastDigit = trimmed.lastIndex(where: { $0.isNumber }) else { return nil }
        let number = String(trimmed[...lastDigit]).trimmingCharacters(in: .whitespaces)
        let unit = String(trimmed[trimmed.index(after: lastDigit)...]).trimmingCharacters(in: .whitespaces)
        guard !unit.isEmpty, units[unit.lowercased()] != nil || units[unit] != nil else { return nil }
        let parts = number.split(whereSeparator: { $0 == "–" || $0 == "-" || $0 == "—" }).map { $0.trimmingCharacters(in: .whitespaces) }
        guard (1...2).contains(parts.count), !number.hasPrefix("-") else { return nil }
        let values = parts.compactMap { Double($0.replacingOccurrences(of: ",", with: "")) }
        guard values.count == parts.count else { return nil }
        return (values[0], values[values.count - 1], number, unit)
    }

    /// `value` split into the measurement and its unit ("1.4–2.5 m" → "1.4–2.5", "m"), or the value
    /// unchanged and no unit when it is not one number or range followed by a known unit.
    public static func split(_ value: String) -> (value: String, unit: String?) {
        guard let parsed = parse(value) else { return (value, nil) }
        return (parsed.number, parsed.unit)
    }

    /// A measurement in its SI base unit ("140–250 cm" → "1.4–2.5 m"), or nil when `text` is not one.
    public static func normalised(_ text: String) -> String? {
        guard let parsed = parse(text) else { return nil }
        let (base, factor) = units[parsed.unit] ?? units[parsed.unit.lowercased()]!
        let low = format(parsed.low * factor), high = format(parsed.high * factor)
        return (low == high ? low : low + "–" + high) + " " + base
    }

    /// Six significant digits, no trailing zeros.
    static func format(_ x: Double) -> String {
        var s = String(format: "%.6g", x)
        if s.contains("."), !s.contains("e") {
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
        }
        return s
    }
}

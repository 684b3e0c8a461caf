import STOLEngine
/// The kinds of placeholder name NCBI files sequences under: names for organisms nobody has
/// named, which fill a reference database for people with noise (`Bidens sp. 'Lyon'`,
/// `uncultured bacterium`, `environmental samples`, `unclassified Bacteria`).
public enum PlaceholderName: String, Sendable, CaseIterable, Comparable {
    /// Open nomenclature: `Genus sp. …`, `Genus cf. species …`, `Genus aff. species …`.
    case openNomenclature = "sp./cf./aff."
    case uncultured
    case environmentalSamples = "environmental samples"
    case unclassified
    case unidentified
    /// NCBI's `other entries` and `unclassified entries` (`other sequences` and `unclassified
    /// sequences` in older dumps): vectors, synthetic constructs, metagenomes. Not organisms;
    /// the NCBI importer leaves out their whole subtree.
    case sequences = "other and unclassified sequences"

    /// The kind of placeholder `name` is, or nil for a real name.
    public static func classify(_ name: String) -> PlaceholderName? {
        var name = name
        return name.withUTF8 { classify(utf8: $0) }
    }

    /// The kind of placeholder the UTF-8 name `bytes` is, or nil for a real name (an importer reads
    /// names as bytes and makes strings only of the ones it keeps).
    public static func classify(utf8 bytes: UnsafeBufferPointer<UInt8>) -> PlaceholderName? {
        if isSequenceRoot(utf8: bytes) { return .sequences }
        func hasPrefix(_ prefix: StaticString) -> Bool {
            let p = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            guard bytes.count >= p.count else { return false }
            for i in 0..<p.count where bytes[i] | 0x20 != p[i] | 0x20 { return false }
            return true
        }
        if hasPrefix("uncultured ") { return .uncultured }
        if hasPrefix("unclassified ") { return .unclassified }
        if hasPrefix("unidentified ") { return .unidentified }
        if bytes.count >= environmental.count, bytes[(bytes.count - environmental.count)...].elementsEqual(environmental) {
            return .environmentalSamples
        }
        // " sp." / " cf." / " aff." as a word of their own, not at the start.
        for i in 1..<max(bytes.count, 1) where bytes[i] == 0x20 {
            let rest = bytes[(i + 1)...]
            for (m, marker) in Self.markers.enumerated() where rest.starts(with: marker) {
                let after = i + 1 + marker.count
                // `f. sp.` is a forma specialis, a rank below species, not a placeholder.
                if m == 0, i >= 3, bytes[(i - 3)..<i].elementsEqual(Self.formaPrefix) { continue }
                if after == bytes.count || bytes[after] == 0x20 { return .openNomenclature }
            }
        }
        return nil
    }

    /// Whether the UTF-8 name `bytes` is one of NCBI's `other entries` / `unclassified entries`
    /// roots (`.sequences`).
    public static func isSequenceRoot(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        sequenceRoots.contains { $0.elementsEqual(bytes) }
    }

    public static func < (lhs: PlaceholderName, rhs: PlaceholderName) -> Bool { lhs.rawValue < rhs.rawValue }

    private static let sequenceRoots = ["other entries", "unclassified entries", "other sequences", "unclassified sequences"].map { Array($0.utf8) }
    private static let environmental = Array("environmental samples".utf8)
    /// `sp.` (first), `cf.`, `aff.`.
    private static let markers = ["sp.", "cf.", "aff."].map { Array($0.utf8) }
    private static let formaPrefix = Array(" f.".utf8)
}

/// How many placeholder names an import left out, by kind.
public struct PlaceholderCounts: Sendable, Equatable {
    public var byKind: [PlaceholderName: Int] = [:]

    public init() {}

    public var total: Int { byKind.values.reduce(0, +) }

    /// `sp./cf./aff. 1296000, uncultured 23544, ...`
    public var summary: String {
        byKind.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
    }
}

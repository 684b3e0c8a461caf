import STOLProtocol
import Testing

@testable import STOLEngine

/// Trait deltas and similarity: free-text values compared as normalised terms.
struct TraitComparisonTests {
    static let lion = [
        Trait(key: "habitat", value: "savanna, grassland and open woodland of Africa; Gir Forest in India"),
        Trait(key: "diet", value: "carnivore (large hoofed mammals)"),
        Trait(key: "body length", value: "1.4–2.5", unit: "m"),
    ]
    static let tiger = [
        Trait(key: "habitat", value: "tropical forests, mangroves, Grasslands and snowy taiga of Asia"),
        Trait(key: "Diet", value: "Carnivore  (deer, wild pigs and other large mammals)"),
        Trait(key: "body_length", value: "1.5–2.9 m"),
    ]

    @Test func lionAndTigerShareTheirDietAndGrassland() {
        let (deltas, similarity) = TraitComparison.compare(Self.lion, Self.tiger)
        #expect(deltas.map(\.key) == ["body length", "diet", "habitat"])
        #expect(deltas[1] == TraitDelta(key: "diet", shared: ["carnivore"], onlyA: [], onlyB: []))
        #expect(deltas[2].shared == ["grassland"])
        #expect(deltas[2].onlyA == ["savanna", "open woodland of Africa", "Gir Forest in India"])
        #expect(deltas[2].onlyB == ["tropical forests", "mangroves", "snowy taiga of Asia"])
        #expect(deltas[0] == TraitDelta(key: "body length", shared: [], onlyA: ["1.4–2.5 m"], onlyB: ["1.5–2.9 m"]))
        // Shared: diet/carnivore, habitat/grassland; in all 10 (key, term) pairs.
        #expect(similarity == 0.2)
    }

    @Test func measurementsCompareInSIUnits() {
        let a = [Trait(key: "body_length_mm", value: "1400"), Trait(key: "mass", value: "190", unit: "kg")]
        let b = [Trait(key: "body length", value: "140 cm"), Trait(key: "mass", value: "190000 g")]
        let (deltas, similarity) = TraitComparison.compare(a, b)
        #expect(similarity == 1)
        #expect(deltas.map(\.key) == ["body_length_mm", "mass"])
        #expect(deltas.allSatisfy { $0.onlyA.isEmpty && $0.onlyB.isEmpty })
        #expect(TraitUnit.normalised("140–250 cm") == "1.4–2.5 m")
        #expect(TraitUnit.split("1.4–2.5 m") == ("1.4–2.5", "m"))
        #expect(TraitUnit.split("up to 3 m tall") == ("up to 3 m tall", nil))
    }

    @Test func similarityIsNullWithoutTraitsOnEitherSide() {
        #expect(TraitComparison.compare([], Self.tiger).similarity == nil)
        #expect(TraitComparison.compare([], Self.tiger).deltas.flatMap(\.onlyB).count == 6)
        #expect(TraitComparison.compare(Self.lion, Self.lion).similarity == 1)
    }
}

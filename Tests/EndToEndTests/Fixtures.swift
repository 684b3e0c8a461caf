import Foundation
import STOLProtocol

/// Small taxonomy sources the tests write, built into databases with the real `build-db`.
enum Fixtures {
    /// A tree with every rank, names in several languages, synonyms, traits, references, and a
    /// genus of 25 species for paging.
    static let taxa = """
        domain Eukaryota
          name en Eukaryotes
        kingdom Animalia
          name en Animals
          name fr Animaux
        phylum Chordata
          name en Chordates
        class Mammalia
          name en Mammals
        order Carnivora
          name en Carnivorans
        family Felidae
          name en Cats
        genus Panthera
          name en Big cats
        species Panthera leo
          author Linnaeus
          year 1758
          iucn VU
          name en Lion
          name es León
          name de Löwe
          name en African lion
          synonym Felis leo
          trait diet: carnivore
          trait habitat: savanna
          ref Linnaeus, C. (1758). Systema Naturae, 10th edition.
        species Panthera tigris
          author Linnaeus
          year 1758
          iucn EN
          name en Tiger
          name fr Tigre
          trait diet: carnivore
        genus Felis
        species Felis catus
          author Linnaeus
          year 1758
          iucn NE
          name en Cat
        family Canidae
          name en Dogs
        genus Canis
        species Canis lupus
          author Linnaeus
          year 1758
          iucn LC
          name en Wolf
        order Rodentia
          name en Rodents
        family Muridae
        genus Testus
        \((1...25).map { "species Testus species\(String(format: "%02d", $0))\n  iucn \($0 % 2 == 0 ? "LC" : "EN")" }.joined(separator: "\n"))
        kingdom Plantae
          name en Plants
        phylum Tracheophyta
        class Magnoliopsida
        order Rosales
        family Rosaceae
        genus Rosa
        species Rosa canina
          author L.
          year 1753
          name en Dog rose
        domain Bacteria
        kingdom Pseudomonadati
        phylum Pseudomonadota
        class Gammaproteobacteria
        order Enterobacterales
        family Enterobacteriaceae
        genus Escherichia
        species Escherichia coli
          author Castellani & Chalmers
          year 1919
          synonym Bacillus coli

        """

    /// Writes `text` as a `.taxa` source plus dataset.info, builds it, and returns the database.
    static func buildDatabase(_ text: String = taxa, extraArguments: [String] = []) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-fixture-\(UUID().uuidString)")
        let source = dir.appendingPathComponent("source")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try text.write(to: source.appendingPathComponent("fixture.taxa"), atomically: true, encoding: .utf8)
        try "name: Fixture\nversion: 1\nlicense: CC0\nattribution: tests\nbuild_date: 2026-01-01\n"
            .write(to: source.appendingPathComponent("dataset.info"), atomically: true, encoding: .utf8)
        let db = dir.appendingPathComponent("fixture.sqlite")
        let run = try EngineProcess.run(["build-db", "--taxa", source.path, "--out", db.path, "--quiet"] + extraArguments)
        guard run.code == 0 else { throw FixtureError(message: run.stderr) }
        return db
    }

    struct FixtureError: Error { var message: String }
}

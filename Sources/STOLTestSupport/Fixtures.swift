import Foundation

/// Small taxonomy sources the tests write, built into databases with the real `build-db`.
public enum Fixtures {
    /// A tree with every rank, names in several languages, synonyms, traits, references, and a
    /// genus of 25 species for paging.
    public static let taxa = """
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

    /// The rows of an NCBI taxdump file (`nodes.dmp`, `names.dmp`) in its `\t|\t` layout.
    public static func taxdump(_ rows: [[String]]) -> String {
        rows.map { $0.joined(separator: "\t|\t") + "\t|\n" }.joined()
    }

    /// Writes `text` as a `.taxa` source plus dataset.info, builds it, and returns the database.
    public static func buildDatabase(_ text: String = taxa, extraArguments: [String] = []) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-fixture-\(UUID().uuidString)")
        let source = dir.appendingPathComponent("source")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try text.write(to: source.appendingPathComponent("fixture.taxa"), atomically: true, encoding: .utf8)
        try "name: Fixture\nversion: 1\nlicense: CC0\nattribution: tests\nbuild_date: 2026-01-01\n"
            .write(to: source.appendingPathComponent("dataset.info"), atomically: true, encoding: .utf8)
        let db = dir.appendingPathComponent("fixture.sqlite")
        let run = try EngineBinary.run(["build-db", "--taxa", source.path, "--out", db.path, "--quiet"] + extraArguments)
        guard run.code == 0 else { throw FixtureError(message: run.stderr) }
        return db
    }

    /// A fixture the binary could not build, with its stderr.
    public struct FixtureError: Error {
        public var message: String
        public init(message: String) { self.message = message }
    }
}

extension Fixtures {
    /// A fixture database packed into a `.stol` signed with a fresh test key; engines trust it
    /// with `--trusted-key publicKey`.
    public struct SignedDatabase: Sendable {
        public var database: URL
        public var stol: URL
        public var key: URL
        /// The key's public half, hex, for `--trusted-key`.
        public var publicKey: String
    }

    /// Builds `text` and packs it with a new key.
    public static func signedDatabase(_ text: String = taxa) throws -> SignedDatabase {
        let database = try buildDatabase(text)
        let dir = database.deletingLastPathComponent()
        let key = dir.appendingPathComponent("test.key"), stol = dir.appendingPathComponent("fixture.stol")
        let keygen = try EngineBinary.run(["keygen", "--out", key.path])
        guard keygen.code == 0 else { throw FixtureError(message: keygen.stderr) }
        let pack = try EngineBinary.run(["pack", "--db", database.path, "--key", key.path, "--out", stol.path])
        guard pack.code == 0 else { throw FixtureError(message: pack.stderr) }
        return SignedDatabase(database: database, stol: stol, key: key, publicKey: keygen.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

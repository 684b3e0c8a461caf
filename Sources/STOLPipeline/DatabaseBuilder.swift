import Foundation
import GRDB
import STOLEngine

/// Writes an assembled taxonomy into a new schema-v1 SQLite database: rows, the search index, the
/// Euler tour, precomputed relatives and credits; then VACUUM (into a file beside the output,
/// renamed over it) and the integrity and foreign-key checks. The full-text tables are built on a
/// thread of their own (`FullTextBuild`), and so are the relatives (`writeRelatives`); the checks
/// share two threads (`BuiltDatabaseCheck`).
///
/// Rows are written in id order and siblings in name order, so the same input always gives the
/// same content.
public struct DatabaseBuilder {
    /// Dataset credits stored in `dataset_info`.
    public struct Metadata: Sendable {
        public var name: String
        public var version: String
        public var license: String
        public var attribution: String
        /// ISO-8601 date; fixed by the caller so rebuilds are reproducible.
        public var buildDate: String
        public var sourceFiles: [String]
        public var description: String?
        public var extra: [String: String] = [:]

        public init(name: String, version: String, license: String, attribution: String, buildDate: String, sourceFiles: [String], description: String? = nil) {
            self.name = name
            self.version = version
            self.license = license
            self.attribution = attribution
            self.buildDate = buildDate
            self.sourceFiles = sourceFiles
            self.description = description
        }
    }

    /// Counts and timings of a build.
    public struct Report: Sendable {
        public var taxa = 0
        public var names = 0
        public var references = 0
        public var traits = 0
        public var species = 0
        /// Taxa ranked below species (named subspecies and varieties).
        public var belowSpecies = 0
        /// Rows of `descriptions`.
        public var descriptions = 0
        /// Names merged from other sources (rows of `name_sources`).
        public var mergedNames = 0
        public var relatives = 0
        public var eulerEntries = 0
        public var bytes: Int64 = 0
        /// Stage name and seconds, in order.
        public var timings: [(stage: String, seconds: Double)] = []
    }

    public var topN: Int
    /// Called with a stage name and a fraction of that stage.
    public var progress: @Sendable (String, Double) -> Void

    public init(topN: Int = 10, progress: @escaping @Sendable (String, Double) -> Void = { _, _ in }) {
        self.topN = topN
        self.progress = progress
    }

    /// Builds `output` (replacing any file there) from `assembled`.
    public func build(_ assembled: TaxonomyAssembler.Assembled, metadata: Metadata, to output: URL) throws -> Report {
        var report = Report()
        var clock = ContinuousClock.now
        func lap(_ stage: String) {
            let now = ContinuousClock.now
            let d = now - clock
            report.timings.append((stage, Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18))
            clock = now
        }

        let fm = FileManager.default
        for suffix in ["", "-journal", "-wal", "-shm"] { try? fm.removeItem(atPath: output.path + suffix) }
        var config = Configuration()
        config.journalMode = .default
        // Rows go in id order, so a child may precede its parent; references are checked at the end.
        config.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: output.path, configuration: config)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; \(Self.pageCache) PRAGMA temp_store = MEMORY;")
        }

        let taxa = assembled.taxa
        let ids = assembled.ids
        let n = taxa.count
        // Global name order: siblings, roots and relatives' ties follow it.
        progress("ordering", 0)
        var byName = Array(0..<Int32(n))
        byName.sort { a, b in
            let x = taxa[Int(a)].scientificName, y = taxa[Int(b)].scientificName
            return x != y ? x < y : ids[Int(a)] < ids[Int(b)]
        }
        var nameOrder = [Int32](repeating: 0, count: n)
        for (position, node) in byName.enumerated() { nameOrder[Int(node)] = Int32(position) }
        let tree = try TreeIndex(parent: assembled.parentIndex) { nameOrder[Int($0)] < nameOrder[Int($1)] }
        lap("order")

        let byID = (0..<n).sorted { ids[$0] < ids[$1] }
        var childCounts = [Int32](repeating: 0, count: n)
        for p in assembled.parentIndex where p >= 0 { childCounts[Int(p)] += 1 }
        var deferred = try queue.write { db in
            // The specification's schema and every extension; the schema's own row gets the build
            // date, so the same input gives the same bytes.
            try db.execute(sql: try Schema.sql())
            try db.execute(sql: "UPDATE schema_version SET version = ?, applied_at = ?", arguments: [Schema.currentVersion, metadata.buildDate])
            // Each table's indexes are created once the table is full: sorted once rather than
            // grown a random key at a time.
            return try DeferredIndexes(db, tables: Self.bulkTables)
        }
        // The full-text tables are built beside the rows, on the other core, and copied in after
        // the search names.
        let fullText = FullTextBuild(
            beside: output,
            definitions: try queue.read { db in
                try ["fts_taxa", "fts_words"].map { name in
                    guard let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [name]) else {
                        throw SourceIssue("the schema has no \(name)", at: nil)
                    }
                    return sql
                }
            },
            taxa: taxa, ids: ids, order: byID)
        try queue.write { db in
            var insertTaxon = try BatchedInsert(db, into: "taxa", columns: ["id", "parent_id", "rank", "scientific_name", "author", "year", "status", "conservation", "child_count"])
            var insertName = try BatchedInsert(db, into: "names", columns: ["id", "taxon_id", "name", "lang", "name_type", "is_preferred"])
            var insertNameSource = try BatchedInsert(db, into: "name_sources", columns: ["name_id", "source"])
            var insertDescription = try BatchedInsert(
                db, into: "descriptions", columns: ["taxon_id", "lang", "text", "source_title", "source_url", "license", "source_name"])
            var nameID: Int64 = 0
            var insertRef = try BatchedInsert(db, into: "refs", columns: ["taxon_id", "citation", "url", "ref_type"])
            var insertTrait = try BatchedInsert(db, into: "traits", columns: ["taxon_id", "trait_key", "trait_value", "unit"])

            for (step, i) in byID.enumerated() {
                if step % 50_000 == 0 { progress("taxa", Double(step) / Double(max(n, 1))) }
                let t = taxa[i]
                let id = ids[i]
                let p = assembled.parentIndex[i]
                try insertTaxon.append(
                    .int(id), p >= 0 ? .int(ids[Int(p)]) : .null, .optional(t.rank?.rawValue), .text(t.scientificName),
                    .optional(t.author), .optional(t.year), .text(t.status.rawValue), .optional(t.conservation?.rawValue),
                    .int(Int64(childCounts[i])))
                let names = t.names.isEmpty ? [] : Self.normalisedNames(t.names)
                for name in names {
                    nameID += 1
                    try insertName.append(.int(nameID), .int(id), .text(name.name), .text(name.lang), .text(name.type.rawValue), .int(name.isPreferred ? 1 : 0))
                    if let source = name.source {
                        try insertNameSource.append(.int(nameID), .text(source))
                        report.mergedNames += 1
                    }
                }
                report.names += names.count
                for d in t.descriptions.sorted(by: { $0.lang < $1.lang }) {
                    try insertDescription.append(.int(id), .text(d.lang), .text(d.text), .optional(d.sourceTitle), .optional(d.sourceURL), .optional(d.license), .optional(d.sourceName))
                }
                report.descriptions += t.descriptions.count
                for ref in t.references {
                    try insertRef.append(.int(id), .text(ref.citation), .optional(ref.url), .text(ref.type))
                }
                report.references += t.references.count
                let traits = Self.distinctTraits(t.traits)
                for trait in traits {
                    let (value, unit) = TraitUnit.split(trait.value)
                    try insertTrait.append(.int(id), .text(trait.key), .text(value), .optional(unit))
                }
                report.traits += traits.count
                if t.rank == .species { report.species += 1 }
                if t.rank?.isBelowSpecies == true { report.belowSpecies += 1 }
            }
            try insertTaxon.finish()
            try insertName.finish()
            try insertNameSource.finish()
            try insertDescription.finish()
            try insertRef.finish()
            try insertTrait.finish()
            report.taxa = n
            try deferred.create(db, for: ["taxa", "names", "refs", "traits"])
        }
        lap("rows")

        progress("search index", 0)
        try queue.write { db in
            try SchemaExtensions.fillSearchNames(db, source: "main")
            try deferred.create(db, for: ["search_names"])
        }
        try queue.writeWithoutTransaction { db in try fullText.copy(into: db) }
        lap("search index")

        progress("euler tour", 0)
        try queue.write { db in
            var insertEuler = try BatchedInsert(db, into: "euler_tour", columns: ["seq", "taxon_id", "depth"])
            var insertFirst = try BatchedInsert(db, into: "first_occurrence", columns: ["taxon_id", "seq"])
            var first = [Int64](repeating: -1, count: n)
            var idx: Int64 = 0
            try tree.eulerTour { node, depth in
                try insertEuler.append(.int(idx), .int(ids[Int(node)]), .int(Int64(depth)))
                if first[Int(node)] < 0 { first[Int(node)] = idx }
                idx += 1
            }
            report.eulerEntries = Int(idx)
            try insertEuler.finish()
            for i in byID { try insertFirst.append(.int(ids[i]), .int(first[i])) }
            try insertFirst.finish()
        }
        lap("euler tour")

        if topN > 0 {
            // A flag per node rather than a look into `taxa`: the finder asks it of every node it
            // passes, and NCBI's wide families make that tens of millions of scattered reads.
            let isSpecies = taxa.map { $0.rank == .species }
            // Named subspecies and varieties get relatives too (species, their own first); they are
            // never relatives themselves.
            let answered = taxa.map { $0.rank?.isSpeciesOrBelow == true }
            try queue.write { db in
                report.relatives = try writeRelatives(
                    db, tree: tree, nameOrder: nameOrder, isSpecies: isSpecies, answered: answered, idOrder: byID, ids: ids,
                    species: report.species + report.belowSpecies)
            }
        }
        lap("relatives")

        // Heads of names and prominence read what the database holds by now, as an import does.
        progress("search ranking", 0)
        try queue.write { db in
            try SchemaExtensions.fillSearchRanking(db, source: "main")
            try deferred.create(db, for: ["name_heads", "taxon_prominence"])
        }
        lap("search ranking")

        try queue.write { db in
            var info: [(String, String)] = [
                ("name", metadata.name), ("version", metadata.version), ("license", metadata.license),
                ("attribution", metadata.attribution), ("build_date", metadata.buildDate),
                ("source_files", metadata.sourceFiles.joined(separator: "\n")),
                ("top_n", String(topN)),
            ]
            if let d = metadata.description { info.append(("description", d)) }
            info.append(contentsOf: metadata.extra.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            for (key, value) in info {
                try db.execute(sql: "INSERT OR REPLACE INTO dataset_info(key, value) VALUES (?, ?)", arguments: [key, value])
            }
            try db.execute(sql: "ANALYZE")
        }
        progress("vacuum", 0)
        // VACUUM INTO a file beside the output, renamed over it: one streamed copy. A plain VACUUM
        // copies the whole database into a temporary one and back, and `temp_store = MEMORY` kept
        // that copy in RAM: the build's peak was the database's size over everything else.
        let compacted = output.deletingLastPathComponent().appendingPathComponent(output.lastPathComponent + ".compacting")
        try? fm.removeItem(at: compacted)
        do {
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: Self.copyCache)
                try db.execute(sql: "VACUUM INTO ?", arguments: [compacted.path])
            }
            try queue.close()
            guard rename(compacted.path, output.path) == 0 else {
                throw SourceIssue("cannot replace \(output.path): \(String(cString: strerror(errno)))", at: nil)
            }
        } catch {
            try? fm.removeItem(at: compacted)
            throw error
        }
        lap("vacuum")
        try BuiltDatabaseCheck(path: output.path, cache: Self.pageCache).run()
        lap("integrity check")
        report.bytes = (try? fm.attributesOfItem(atPath: output.path)[.size] as? Int64) ?? 0
        return report
    }

    /// The tables whose indexes wait until they are full. Not `top_n_relatives`: its rows go in in
    /// index order, which grows the index at its end, cheaper than sorting it afterwards.
    static let bulkTables = ["taxa", "names", "refs", "traits", "search_names", "name_heads", "taxon_prominence"]

    /// The page cache of the connection that builds the database, and of each of the two that
    /// check it: 256 MB.
    static let pageCache = "PRAGMA cache_size = -262144;"

    /// The page cache of the VACUUM INTO copy, which SQLite gives the copy too: 16 MB. The copy
    /// reads each page once and appends it, so a large cache only held a second copy of pages.
    static let copyCache = "PRAGMA cache_size = -16384;"

    /// The full-text columns of a taxon's names: common names, then synonyms, each joined by ` ; `.
    static func joinedNames(_ names: [SourceName]) -> (commons: String, synonyms: String) {
        guard !names.isEmpty else { return ("", "") }
        return (
            names.filter { $0.type != .synonym }.map(\.name).joined(separator: " ; "),
            names.filter { $0.type == .synonym }.map(\.name).joined(separator: " ; ")
        )
    }

    /// Each trait once, in source order (the specification's table has no uniqueness constraint).
    static func distinctTraits(_ traits: [SourceTrait]) -> [SourceTrait] {
        var seen = Set<SourceTrait>()
        return traits.filter { seen.insert($0).inserted }
    }

    /// One preferred name per language and type at most, preferred first, duplicates removed.
    static func normalisedNames(_ names: [SourceName]) -> [SourceName] {
        var out: [SourceName] = []
        var seen = Set<SourceName>()
        var preferredTaken = Set<String>()
        for var name in names {
            name.name = name.name.trimmingCharacters(in: .whitespaces)
            guard !name.name.isEmpty else { continue }
            let slot = name.lang + "|" + name.type.rawValue
            if name.isPreferred {
                if preferredTaken.contains(slot) { name.isPreferred = false } else { preferredTaken.insert(slot) }
            }
            var plain = name
            plain.isPreferred = false
            plain.source = nil
            guard seen.insert(plain).inserted else { continue }
            out.append(name)
        }
        // A language with common names but none marked preferred: the first one is.
        for i in out.indices where out[i].type != .synonym && !preferredTaken.contains(out[i].lang + "|" + out[i].type.rawValue) {
            preferredTaken.insert(out[i].lang + "|" + out[i].type.rawValue)
            out[i].isPreferred = true
        }
        return out
    }
}

extension TreeError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .cycle(let node): "parent cycle at node \(node)"
        }
    }
}

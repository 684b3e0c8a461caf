import ArgumentParser
import Foundation
import STOLEngine

/// `stol-engine benchmark …`: developer measurements, hidden from help.
struct Benchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Developer benchmarks.", shouldDisplay: false, subcommands: [LCA.self])

    /// Builds a database's in-memory tree and times LCA queries on random pairs.
    struct LCA: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lca", abstract: "Build the in-memory tree of a database; time it and LCA queries per second.")

        @Option(help: "The taxonomy database.")
        var database: String

        @Option(help: "Random node pairs per run.")
        var pairs: Int = 1_000_000

        @Option(help: "Timed runs (the median is reported).")
        var runs: Int = 7

        @Option(help: "Build from: tour (euler_tour, the engine's choice), taxa, or both.")
        var source: String = "both"

        func validate() throws {
            guard pairs > 0, runs > 0 else { throw ValidationError("--pairs and --runs must be positive") }
            guard ["tour", "taxa", "both"].contains(source) else { throw ValidationError("--source must be tour, taxa or both") }
        }

        func run() async throws {
            let db = try TaxonomyDatabase(url: URL(fileURLWithPath: database), source: .reference)
            print("database \(database): \(db.taxaCount) taxa, rss \(Self.memory())")
            var snapshot: LCASnapshot?
            for (name, preferTour) in [("tour", true), ("taxa", false)] where source == "both" || source == name {
                let s = try await LCASnapshotLoader.load(db, preferTour: preferTour)
                print(String(format: "build from %@ (%@): %.3f s, %d nodes, %.1f MB (%.1f bytes/node); rss %@", name, s.source.rawValue, s.buildSeconds, s.count, Double(s.bytes) / 1e6, Double(s.bytes) / Double(max(s.count, 1)), Self.memory()))
                snapshot = s
            }
            guard let snapshot, snapshot.count > 0 else { return }

            var rng = SystemRandomNumberGenerator()
            let n = Int32(snapshot.count)
            let us = (0..<pairs).map { _ in Int32.random(in: 0..<n, using: &rng) }
            let vs = (0..<pairs).map { _ in Int32.random(in: 0..<n, using: &rng) }
            let index = snapshot.index
            var checksum = 0
            let lca = Self.median(runs) {
                for i in 0..<us.count { checksum &+= Int(index.lca(us[i], vs[i]) ?? -1) }
            }
            let distance = Self.median(runs) {
                for i in 0..<us.count { checksum &+= Int(index.distance(us[i], vs[i]) ?? -1) }
            }
            print(String(format: "lca: %.1f M queries/s (median of %d runs of %d random pairs; %.0f ns/query)", Double(pairs) / lca / 1e6, runs, pairs, lca / Double(pairs) * 1e9))
            print(String(format: "distance: %.1f M queries/s", Double(pairs) / distance / 1e6))

            // The id → node map: binary search over a sorted array versus a dictionary.
            let ids = us.map { snapshot.id(of: $0) }
            let sorted = Self.median(runs) {
                for id in ids { checksum &+= Int(snapshot.node(for: id) ?? -1) }
            }
            let before = Self.residentBytes()
            let started = ContinuousClock.now
            var dictionary: [Int64: Int32] = [:]
            dictionary.reserveCapacity(snapshot.count)
            for node in 0..<n { dictionary[snapshot.id(of: node)] = node }
            let dictionaryBuild = ContinuousClock.now - started
            let dictionaryBytes = Self.residentBytes() - before
            let hashed = Self.median(runs) {
                for id in ids { checksum &+= Int(dictionary[id] ?? -1) }
            }
            print(String(format: "id → node, sorted array (4 bytes/node): %.1f M lookups/s", Double(pairs) / sorted / 1e6))
            print(String(format: "id → node, dictionary (%.1f bytes/node by rss, built in %@): %.1f M lookups/s", Double(dictionaryBytes) / Double(n), "\(dictionaryBuild)", Double(pairs) / hashed / 1e6))
            print("checksum \(checksum & 0xFFFF), peak \(Self.memory())")
        }

        /// Median seconds of `runs` calls.
        static func median(_ runs: Int, _ body: () -> Void) -> Double {
            var times: [Double] = []
            for _ in 0..<runs {
                let start = ContinuousClock.now
                body()
                let d = ContinuousClock.now - start
                times.append(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
            }
            return times.sorted()[times.count / 2]
        }

        static func status() -> [String: String] {
            var out: [String: String] = [:]
            let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2 { out[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
            return out
        }

        static func residentBytes() -> Int {
            Int(status()["VmRSS"]?.split(separator: " ").first ?? "0").map { $0 * 1024 } ?? 0
        }

        static func memory() -> String {
            let s = status()
            return "\(s["VmRSS"] ?? "?") (peak \(s["VmHWM"] ?? "?"))"
        }
    }
}

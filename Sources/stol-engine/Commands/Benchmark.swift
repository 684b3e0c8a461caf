import ArgumentParser
import Foundation
import STOLEngine
import STOLJSON
import STOLRPC
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stol-engine benchmark …`: developer measurements, hidden from help.
struct Benchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Developer benchmarks.", shouldDisplay: false, subcommands: [LCA.self, Floor.self])

    /// The protocol-throughput floor: the I/O and JSON work the engine cannot avoid for `taxon/get`,
    /// without the database. Reads stdin lines with the engine's `InputReader`/`LineFramer`, parses
    /// each with `JSONParser`, classifies it (`IncomingMessage`), reads the `id` param, encodes a
    /// response carrying a taxon object (read once from a real engine answer) and writes it through
    /// `OutputWriter`. `bench/run.py` compares pipelined `taxon/get` against it.
    struct Floor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "floor", abstract: "Answer every request with a fixed taxon: the stdio + JSON floor.")

        @Option(help: "A file holding the JSON of one taxon/get result (or a whole response; its result is used).")
        var taxon: String?

        static let fallback = #"{"id":1,"parentId":null,"rank":"species","scientificName":"Panthera leo","commonName":"Lion","childCount":0,"descendantCount":0,"speciesCount":1,"conservation":null}"#

        func run() throws {
            let text = try taxon.map { try String(contentsOfFile: $0, encoding: .utf8) } ?? Self.fallback
            var template = try JSONParser.parse(Array(text.utf8))
            if let result = template["result"] { template = result }
            guard case .object(let fields) = template else { throw ValidationError("--taxon must hold a JSON object") }
            // The reader went away: nothing left to answer.
            let output = OutputWriter(fd: 1, onBrokenPipe: { Self.quit() })
            let done = DispatchSemaphore(value: 0)
            let reader = InputReader(fd: 0, maxLineBytes: 1 << 20)
            reader.start(
                gate: { output.waitUntilPending(below: 1 << 20) },
                onEvent: { event, _ in
                    guard case .line(let line) = event else { return }
                    let value: JSONValue
                    do { value = try JSONParser.parse(line) } catch { return }
                    guard case .request(let request) = IncomingMessage(value), let id = request.id else { return }
                    var answer = fields
                    if let taxonID = request.params?["id"]?.int64Value, let slot = answer.firstIndex(where: { $0.key == "id" }) {
                        answer[slot].value = .integer(taxonID)
                    }
                    var out = Array(#"{"jsonrpc":"2.0","id":"#.utf8)
                    JSONWriter.write(id.json, into: &out)
                    out.append(contentsOf: #","result":"#.utf8)
                    JSONWriter.write(.object(answer), into: &out)
                    out.append(UInt8(ascii: "}"))
                    output.send(out)
                },
                onEnd: { done.signal() })
            done.wait()
            output.flush()
            output.close()
        }

        static func quit() -> Never {
            #if canImport(Glibc)
            Glibc.exit(0)
            #else
            Darwin.exit(0)
            #endif
        }
    }

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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import STOLClient
import STOLInProcess
import STOLProtocol

/// What STOLClient costs beside the raw pipe (bench only; `bench/run.py --only client` runs it):
/// `taxon/get` round trips one at a time and pipelined throughput, each measured in one run
/// through STOLClient over a spawned engine, through a hand-written line loop on the same kind of
/// spawned engine (ProcessTransport's pipes, one `write` per request, answers counted by their
/// newlines and never parsed), and through STOLClient with the engine in process. Prints JSON.
///
///     stol-client-bench --engine .build-rel/release/stol-engine --ids ids.txt [--database file.sqlite]
@main
struct ClientBenchmark {
    var engine: URL
    var ids: [TaxonID]
    var database: String?
    var roundTrips = 2_000
    var pipelined = 50_000
    var runs = 3
    /// Calls in flight at once when the client pipelines (a window, as an app's task group would keep).
    var window = 1_000

    static func main() async throws {
        var arguments = CommandLine.arguments.dropFirst()
        var options: [String: String] = [:]
        while let name = arguments.popFirst() {
            guard name.hasPrefix("--"), let value = arguments.popFirst() else { Self.fail("usage: --engine PATH --ids FILE [--database FILE] [--round-trips N] [--pipelined N] [--runs N]") }
            options[String(name.dropFirst(2))] = value
        }
        guard let engine = options["engine"], let idFile = options["ids"] else { Self.fail("--engine and --ids are required") }
        let ids = try String(contentsOfFile: idFile, encoding: .utf8).split(whereSeparator: \.isNewline).compactMap { TaxonID($0) }
        guard !ids.isEmpty else { Self.fail("no ids in \(idFile)") }
        var bench = ClientBenchmark(engine: URL(fileURLWithPath: engine), ids: ids, database: options["database"])
        if let n = options["round-trips"].flatMap(Int.init) { bench.roundTrips = n }
        if let n = options["pipelined"].flatMap(Int.init) { bench.pipelined = n }
        if let n = options["runs"].flatMap(Int.init) { bench.runs = n }
        try await bench.run()
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("stol-client-bench: \(message)\n".utf8))
        exit(2)
    }

    var engineArguments: [String] { database.map { ["--database", $0] } ?? [] }

    func run() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stol-client-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = ProcessTransport(executable: engine, arguments: engineArguments + ["--data-dir", scratch.appendingPathComponent("spawned").path])
        var logger = Logger(label: "stol-engine")
        logger.logLevel = .error
        let inProcess = InProcessTransport(
            dataDirectory: scratch.appendingPathComponent("in-process"), databaseFile: database.map(URL.init(fileURLWithPath:)), logger: logger)

        var roundTrip: [String: [Double]] = [:], rates: [String: [Double]] = [:]
        for _ in 0..<runs {
            // Alternating, so that a busy moment of the machine falls on every contender alike.
            var raw = try RawLineLoop(process.start())
            roundTrip["raw", default: []] += try raw.roundTrips(ids, count: roundTrips)
            rates["raw", default: []].append(try raw.pipelined(ids, count: pipelined))
            await raw.end()
            for (name, transport) in [("client", process as any EngineTransport), ("inProcess", inProcess)] {
                let client = STOLClient(transport: transport)
                _ = try await client.start()
                roundTrip[name, default: []] += try await clientRoundTrips(client)
                rates[name, default: []].append(try await clientPipelined(client))
                await client.shutdown()
            }
        }
        let report: [String: Any] = [
            "roundTripMs": roundTrip, "pipelinedPerSecond": rates,
            "roundTrips": roundTrips, "pipelined": pipelined, "runs": runs, "window": window, "ids": ids.count,
        ]
        FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]))
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    /// Milliseconds of each of `roundTrips` calls made one after another (after a warm-up).
    func clientRoundTrips(_ client: STOLClient) async throws -> [Double] {
        for id in ids.prefix(200) { _ = try await client.send(TaxonGetRequest(id: id)) }
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(roundTrips)
        for i in 0..<roundTrips {
            let start = clock.now
            _ = try await client.send(TaxonGetRequest(id: ids[i % ids.count]))
            samples.append(Self.milliseconds(clock.now - start))
        }
        return samples
    }

    /// Calls per second of `pipelined` calls, `window` of them in flight at a time.
    func clientPipelined(_ client: STOLClient) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                let id = ids[next % ids.count]
                next += 1
                group.addTask { _ = try await client.send(TaxonGetRequest(id: id)) }
            }
            while next < min(window, pipelined) { add() }
            while try await group.next() != nil {
                if next < pipelined { add() }
            }
        }
        return Double(pipelined) / Self.seconds(clock.now - start)
    }

    static func milliseconds(_ d: Duration) -> Double { seconds(d) * 1000 }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

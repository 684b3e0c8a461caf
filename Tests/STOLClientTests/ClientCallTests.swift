#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLClient
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLSupport
import STOLTestSupport
import Testing

/// `STOLClient` against the real binary (and against the engine in process, the iOS way): typed
/// calls, typed errors, cancellation, progress, notifications, the engine dying mid-call, restart.
@Suite struct ClientCallTests {
    /// The two ways an engine runs.
    enum Runner: String, CaseIterable, Sendable {
        case process, inProcess

        func client(_ arguments: [String] = []) -> STOLClient {
            let data = EngineBinary.temporaryDirectory("stol-client")
            switch self {
            case .process: return STOLClient(transport: RecordingTransport(arguments, dataDirectory: data))
            case .inProcess: return InProcessClient.engine(dataDirectory: data)
            }
        }
    }

    /// The id of the species `name`, through `search/query`.
    static func species(_ client: STOLClient, _ name: String) async throws -> TaxonID {
        try #require(try await client.send(SearchQueryRequest(query: name, rank: .species)).results.first?.id)
    }

    @Test(arguments: Runner.allCases) func typedCallsAnswerWithTheContractsTypes(_ runner: Runner) async throws {
        let client = runner.client()
        let info = try await client.start()
        #expect(info.serverInfo.name == "stol-engine")
        let lion = try await Self.species(client, "Panthera leo")
        let taxon = try await client.send(TaxonGetRequest(id: lion, lang: "de"))
        #expect(taxon.scientificName == "Panthera leo" && taxon.preferredCommonName == "Löwe" && taxon.rank == .species)
        let page = try await client.send(TaxonDetailRequest(id: lion, include: [.favorite, .relatives]))
        #expect(page.taxon.id == lion && page.lineage.map(\.scientificName).suffix(2) == ["Felidae", "Panthera"])
        #expect(page.included == [.favorite, .relatives] && page.isFavorite == false && page.image == nil)
        #expect(page.relatives?.relatives.isEmpty == false)
        // A method this client has no contract for goes through untyped.
        #expect(try await client.send(method: "ping") == .object([]))
        await client.shutdown()
    }

    @Test(arguments: Runner.allCases) func engineErrorsAreTypedWithCodeKindAndData(_ runner: Runner) async throws {
        let client = runner.client()
        let missing = try await #require(throws: RPCError.self) { try await client.send(TaxonGetRequest(id: 9_000_000_001)) }
        #expect(missing.code == ErrorCode.notFound && missing.kind == .taxonNotFound && missing.data?["id"] == .integer(9_000_000_001))
        let invalid = try await #require(throws: RPCError.self) { try await client.send(TaxonChildrenRequest(id: 1, limit: 5000)) }
        #expect(invalid.code == ErrorCode.invalidParams && invalid.kind == .invalidParams && invalid.field == "limit")
        let unknown = try await #require(throws: RPCError.self) { try await client.send(method: "taxon/nothing") }
        #expect(unknown.kind == .methodNotFound)
        let bundled = try await #require(throws: RPCError.self) { try await client.send(MediaDeletePackRequest(id: "bundled")) }
        #expect(bundled.kind == .mediaPackNotDeletable || bundled.kind == .mediaPackNotFound)
        await client.shutdown()
    }

    /// Cancelling the calling task sends `$/cancelRequest`: the sleep ends long before its minute
    /// and the call throws `CancellationError`; the engine serves on.
    @Test(arguments: Runner.allCases) func cancellingTheTaskCancelsTheRequest(_ runner: Runner) async throws {
        let client = runner == .process
            ? Runner.process.client(["--conformance-methods"])
            : InProcessClient.serving { .conformanceMethods() }
        try await client.start()
        let call = Task { try await client.send(SleepRequest(ms: 60_000)) }
        try await Task.sleep(for: .milliseconds(200))
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(try await client.send(PingRequest()) == EmptyResponse())
        await client.shutdown()
    }

    @Test(arguments: Runner.allCases) func progressComesToItsCallInOrder(_ runner: Runner) async throws {
        let client = runner == .process
            ? Runner.process.client(["--conformance-methods"])
            : InProcessClient.serving { .conformanceMethods() }
        let reports = Locked<[WorkProgress]>([])
        let answer = try await client.send(CountingRequest(steps: 5, delayMs: 5)) { report in reports.withLock { $0.append(report) } }
        #expect(answer["steps"] == 5)
        let seen = reports.withLock { $0 }
        #expect(seen.first?.kind == .begin && seen.last?.kind == .end)
        let fractions = seen.compactMap(\.fraction)
        #expect(!fractions.isEmpty && fractions == fractions.sorted() && fractions.last == 1)
        await client.shutdown()
    }

    @Test(arguments: Runner.allCases) func notificationsComeAsStreams(_ runner: Runner) async throws {
        let client = runner.client()
        let changes = client.notifications(FavoritesDidChangeNotification.self)
        let lion = try await Self.species(client, "Panthera leo")
        _ = try await client.send(FavoritesAddRequest(taxonId: lion))
        _ = try await client.send(FavoritesToggleRequest(taxonId: lion))
        var counts: [Int] = []
        for await change in changes {
            counts.append(change.count)
            if counts.count == 2 { break }
        }
        #expect(counts == [1, 0])
        await client.shutdown()
    }

    /// Calls run side by side: many at once, each matched to its own answer.
    @Test func concurrentCallsAreMatchedToTheirAnswers() async throws {
        let client = Runner.process.client()
        let lion = try await Self.species(client, "Panthera leo")
        let ancestors = try await client.send(TaxonAncestorsRequest(id: lion)).ancestors.map(\.id)
        let answers = try await withThrowingTaskGroup(of: (TaxonID, TaxonID).self) { group in
            for id in ancestors + [lion] { group.addTask { (id, try await client.send(TaxonGetRequest(id: id)).id) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == ancestors.count + 1 && answers.allSatisfy { $0.0 == $0.1 })
        await client.shutdown()
    }

    /// The engine killed mid-call: the pending call fails with how it ended, so does every later
    /// call, and `restart()` serves again.
    @Test func anEngineKilledMidCallFailsItsCallsAndRestarts() async throws {
        let transport = RecordingTransport(["--conformance-methods"])
        let client = STOLClient(transport: transport)
        let exits = client.engineExits()
        try await client.start()
        let pending = Task { try await client.send(SleepRequest(ms: 60_000)) }
        try await Task.sleep(for: .milliseconds(200))
        transport.killNewest(SIGKILL)
        let failure = try await #require(throws: STOLClientError.self) { try await pending.value }
        guard case .engineExited(let exit) = failure else { Issue.record("\(failure)"); return }
        #expect(exit.cause == .signal(SIGKILL))
        #expect("\(failure)".contains("signal 9"))
        await #expect(throws: STOLClientError.engineExited(exit)) { try await client.send(PingRequest()) }
        var exitIterator = exits.makeAsyncIterator()
        #expect(await exitIterator.next() == exit)

        try await client.restart()
        #expect(transport.processIDs.count == 2)
        #expect(try await client.send(PingRequest()) == EmptyResponse())
        #expect(try await client.send(SleepRequest(ms: 1))["slept"] == 1)
        await client.shutdown()
        #expect(await exitIterator.next()?.cause == .exited(code: 0))
        await #expect(throws: STOLClientError.shutDown) { try await client.send(PingRequest()) }
    }

    /// An engine that cannot start says why, and no call hangs.
    @Test func anEngineThatCannotStartSaysWhy() async throws {
        let missing = STOLClient(executable: URL(fileURLWithPath: "/nonexistent/stol-engine"))
        await #expect(throws: STOLClientError.self) { try await missing.start() }
        let refused = STOLClient(transport: RecordingTransport(["--max-message-bytes", "1"]))
        let failure = try await #require(throws: STOLClientError.self) { try await refused.start() }
        guard case .engineExited(let exit) = failure else { Issue.record("\(failure)"); return }
        #expect(exit.cause != .exited(code: 0) && exit.log.contains("max-message-bytes"), "\(exit)")
    }
}

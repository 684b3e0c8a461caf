#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLJSON
import STOLProtocol
import STOLSupport
import Testing

@testable import STOLRPC

/// How the server ends: `shutdown` and `exit` pipelined behind other requests, `stop` (what a
/// signal does), and batches held to the running-request limit and the batch-size cap.
@Suite struct LifecycleTests {
    /// Two ordered writes that take a while, then `shutdown` and `exit`, all in one write.
    @Test func pipelinedShutdownAndExitWaitForTheRequestsBeforeThem() async throws {
        let log = Locked<[String]>([])
        var methods = MethodTable.conformanceMethods()
        methods.on("test/write", ordering: .writes("state")) { (params: [String: String], _) in
            try await Task.sleep(for: .milliseconds(200))
            log.withLock { $0.append(params["name"] ?? "?") }
            return EmptyResponse()
        }
        let h = ServerHarness(methods: methods)
        h.send("""
            {"jsonrpc":"2.0","id":1,"method":"test/write","params":{"name":"a"}}
            {"jsonrpc":"2.0","id":2,"method":"test/write","params":{"name":"b"}}
            {"jsonrpc":"2.0","id":3,"method":"test/sleep","params":{"ms":300}}
            {"jsonrpc":"2.0","id":4,"method":"shutdown"}
            {"jsonrpc":"2.0","id":5,"method":"ping"}
            {"jsonrpc":"2.0","method":"exit"}
            {"jsonrpc":"2.0","id":6,"method":"ping"}
            """)
        var order: [JSONValue] = []
        var answers: [JSONValue: JSONValue] = [:]
        for message in await h.remaining() {
            guard let id = message["id"] else { continue }
            order.append(id)
            answers[id] = message
        }
        #expect(await h.exitCode.value == 0)
        #expect(log.withLock { $0 } == ["a", "b"])
        #expect(answers[.number("1")]?["result"] == .object([]))
        #expect(answers[.number("2")]?["result"] == .object([]))
        #expect(answers[.number("3")]?["result"]?["slept"] == .number("300"), "read before shutdown, so it runs")
        #expect(answers[.number("4")]?["result"] == .null)
        #expect(order.last(where: { $0 != .number("5") }) == .number("4"), "shutdown answers after everything before it: \(order)")
        #expect(answers[.number("5")]?["error"]?["data"]?["kind"] == "serverShutDown")
        #expect(answers[.number("6")] == nil, "nothing after exit is read")
    }

    @Test func exitWithoutShutdownStillAnswersWhatCameBefore() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"test/sleep","params":{"ms":300}}"# + "\n" + #"{"jsonrpc":"2.0","method":"exit"}"#)
        #expect(await h.next()?["result"]?["slept"] == .number("300"))
        #expect(await h.exitCode.value == 1)
    }

    /// `exit` inside a batch: the entries before it are answered (in the batch's array), the
    /// entries after it and later lines are not read.
    @Test func exitInsideABatchEndsAfterTheEntriesBeforeIt() async throws {
        let h = ServerHarness()
        h.send(#"[{"jsonrpc":"2.0","id":1,"method":"shutdown"},{"jsonrpc":"2.0","id":2,"method":"test/sleep","params":{"ms":200}},{"jsonrpc":"2.0","method":"exit"},{"jsonrpc":"2.0","id":3,"method":"ping"}]"#)
        h.send(#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#)
        var messages: [JSONValue] = []
        messages = await h.remaining()
        #expect(await h.exitCode.value == 0)
        #expect(messages.count == 1, "\(messages)")
        let batch = messages.first?.arrayValue ?? []
        #expect(batch.count == 2, "\(batch)")
        #expect(batch.contains { $0["id"] == .number("1") && $0["result"] == .null })
        #expect(batch.contains { $0["id"] == .number("2") && $0["error"]?["data"]?["kind"] == "serverShutDown" })
    }

    @Test func stopCancelsWhatIsInFlightAndEndsWithItsCode() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"test/sleep","params":{"ms":30000}}"#)
        h.send(#"[{"jsonrpc":"2.0","id":2,"method":"test/sleep","params":{"ms":30000}},{"jsonrpc":"2.0","id":3,"method":"ping"}]"#)
        // Lines are read in order: once this ping is answered, both lines above have been read
        // and every request in them started.
        h.send(#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#)
        #expect(await h.next()?["id"] == .number("4"))
        h.server.stop(code: 0, reason: "test")
        var answers: [JSONValue] = []
        answers = await h.remaining()
        #expect(await h.exitCode.value == 0)
        #expect(answers.count == 2, "\(answers)")
        #expect(answers.contains { $0["id"] == .number("1") && $0["error"]?["code"] == .number("-32800") })
        let batch = answers.first { $0.arrayValue != nil }?.arrayValue ?? []
        #expect(batch.contains { $0["id"] == .number("2") && $0["error"]?["code"] == .number("-32800") })
        #expect(batch.contains { $0["id"] == .number("3") && $0["result"] == .object([]) })
    }

    @Test func stopWhileIdleEndsAtOnceAndALaterStopChangesNothing() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        #expect(await h.next()?["result"] == .object([]))
        h.server.stop(code: 3, reason: "test")
        h.server.stop(code: 4, reason: "test again")
        #expect(await h.exitCode.value == 3)
    }

    /// Each request of a batch takes a running-request slot: a batch of 40 with 4 slots never has
    /// more than 4 running, and every request is answered once.
    @Test func eachRequestOfABatchCountsAgainstTheRunningLimit() async throws {
        let running = Locked((now: 0, most: 0))
        var methods = MethodTable.conformanceMethods()
        methods.on("test/busy") { (_: JSONValue, _) in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            try await Task.sleep(for: .milliseconds(20))
            running.withLock { $0.now -= 1 }
            return EmptyResponse()
        }
        let h = ServerHarness(methods: methods) { $0.limits.maxRunningRequests = 4 }
        let entries = (1...40).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"test/busy"}"# }
        h.send("[" + entries.joined(separator: ",") + "]")
        let responses = try #require(await h.next(timeout: .seconds(20))?.arrayValue)
        #expect(Set(responses.compactMap { $0["id"]?.int64Value }) == Set(1...40))
        #expect(responses.count == 40)
        #expect(running.withLock { $0.most } == 4)
    }

    @Test func aBatchOverTheCapIsRefusedWithATypedError() async throws {
        let h = ServerHarness { $0.limits.maxBatchEntries = 3 }
        let entry = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
        h.send("[" + Array(repeating: entry, count: 4).joined(separator: ",") + "]")
        let error = await h.next()
        #expect(error?["id"] == .null)
        #expect(error?["error"]?["code"] == .number("-32600"))
        #expect(error?["error"]?["data"]?["kind"] == "batchTooLarge")
        #expect(error?["error"]?["data"]?["limit"] == .number("3"))
        #expect(error?["error"]?["data"]?["size"] == .number("4"))
        h.send("[" + Array(repeating: entry, count: 3).joined(separator: ",") + "]")
        #expect(await h.next()?.arrayValue?.count == 3)
    }

    /// A batch keeps its answers only up to `maxBatchAnswerBytes`: the answers that do not fit get
    /// a typed error with their own ids, a notification in it still runs, and the next batch
    /// starts with the whole bound again.
    @Test func aBatchKeepsItsAnswersUpToItsBoundAndRefusesTheRest() async throws {
        let ran = Locked(0)
        var methods = MethodTable.conformanceMethods()
        methods.on("test/count") { (_: JSONValue, _) in
            ran.withLock { $0 += 1 }
            return EmptyResponse()
        }
        // Each `get_data` answer is 45 bytes (46 with a two-digit id): four fit in 200, five do not.
        let h = ServerHarness(methods: methods) { $0.limits.maxBatchAnswerBytes = 200 }
        var entries = (1...10).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"get_data"}"# }
        entries.append(#"{"jsonrpc":"2.0","method":"test/count"}"#)
        h.send("[" + entries.joined(separator: ",") + "]")
        let responses = try #require(await h.next()?.arrayValue)
        #expect(Set(responses.compactMap { $0["id"]?.int64Value }) == Set(1...10))
        let results = responses.filter { $0["result"] != nil }
        let refused = responses.filter { $0["error"]?["data"]?["kind"] == "batchAnswerTooLarge" }
        #expect(results.count == 4)
        #expect(refused.count == 6)
        for error in refused {
            #expect(error["error"]?["code"] == .number("-32003"))
            #expect(error["error"]?["data"]?["limit"] == .number("200"))
        }
        #expect(ran.withLock { $0 } == 1)
        h.send("[" + entries.prefix(4).joined(separator: ",") + "]")
        #expect(await h.next()?.arrayValue?.filter { $0["result"] != nil }.count == 4)
    }

    /// A process that has exited but is not reaped yet (a zombie) counts as gone.
    @Test func aZombieParentCountsAsGone() throws {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0)
        var state: UInt8? = nil
        for _ in 0..<500 {
            state = ParentProcess.state(of: pid)
            if state == UInt8(ascii: "Z") { break }
            usleep(10_000)
        }
        try #require(state == UInt8(ascii: "Z"), "the child should be a zombie until reaped")
        #expect(kill(pid, 0) == 0, "a zombie still answers kill(pid, 0)")
        #expect(ParentProcess(pid: pid).goneReason() == "a zombie")
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(ParentProcess(pid: pid).goneReason() == "no such process")
        #expect(ParentProcess(pid: getpid()).goneReason() == nil)
    }
}

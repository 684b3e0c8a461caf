import Foundation
import STOLJSON
import STOLProtocol
import STOLSupport
import Testing

@testable import STOLRPC

@Suite struct ServerTests {
    @Test func aSlowRequestIsOvertakenByAFastOne() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":"slow","method":"test/sleep","params":{"ms":600}}"#)
        h.send(#"{"jsonrpc":"2.0","id":"fast","method":"ping"}"#)
        #expect(await h.next()?["id"] == "fast")
        #expect(await h.next()?["id"] == "slow")
    }

    @Test func cancellationAnswersWithRequestCancelled() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":7,"method":"test/sleep","params":{"ms":30000}}"#)
        h.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":99}}"#)
        h.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}"#)
        let response = await h.next(timeout: .seconds(25))
        #expect(response?["id"] == .number("7"))
        #expect(response?["error"]?["code"] == .number("-32800"))
        h.send(#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#)
        #expect(await h.next()?["result"] == .object([]))
    }

    /// A handler that fails with its own error once cancelled (as a database read does when
    /// SQLite is interrupted) is answered -32800, not -32603.
    @Test func aFailureAfterCancellationIsACancellation() async throws {
        struct Interrupted: Error {}
        var methods = MethodTable.conformanceMethods()
        methods.on("test/interruptible") { (_: JSONValue, _) -> JSONValue in
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            throw Interrupted()
        }
        let h = ServerHarness(methods: methods)
        h.send(#"{"jsonrpc":"2.0","id":3,"method":"test/interruptible"}"#)
        h.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":3}}"#)
        let response = await h.next(timeout: .seconds(25))
        #expect(response?["id"] == .number("3"))
        #expect(response?["error"]?["code"] == .number("-32800"))
    }

    @Test func progressIsOrderedMonotonicAndEndsBeforeTheResponse() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"test/progress","params":{"steps":20,"_meta":{"progressToken":"t"}}}"#)
        var kinds: [String] = []
        var fractions: [Double] = []
        while let message = await h.next() {
            if message["id"] != nil {
                #expect(message["result"]?["steps"] == .number("20"))
                break
            }
            #expect(message["method"] == "$/progress")
            #expect(message["params"]?["token"] == "t")
            let value = message["params"]?["value"]
            kinds.append(value?["kind"]?.stringValue ?? "?")
            if let f = value?["fraction"]?.doubleValue { fractions.append(f) }
        }
        #expect(kinds.first == "begin" && kinds.last == "end")
        #expect(kinds.dropFirst().dropLast().allSatisfy { $0 == "report" })
        #expect(fractions == fractions.sorted() && fractions.last == 1)
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        #expect(await h.next()?["id"] == .number("2"))
    }

    @Test func noTokenMeansNoProgress() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"test/progress","params":{"steps":3}}"#)
        #expect(await h.next()?["id"] == .number("1"))
    }

    @Test func notificationsNeverGetAResponseEvenWhenTheyFail() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","method":"no/such"}"#)
        h.send(#"{"jsonrpc":"2.0","method":"test/fail"}"#)
        h.send(#"{"jsonrpc":"2.0","method":"subtract","params":{"minuend":"x"}}"#)
        h.send(#"{"jsonrpc":"2.0","id":"after","method":"ping"}"#)
        #expect(await h.next()?["id"] == "after")
    }

    @Test func batchesAnswerEachRequestOnceAndSkipNotifications() async throws {
        let h = ServerHarness()
        h.send(#"[{"jsonrpc":"2.0","id":1,"method":"sum","params":[1,2,4]},{"jsonrpc":"2.0","method":"notify_hello","params":[7]},{"foo":"boo"},{"jsonrpc":"2.0","id":"9","method":"get_data"}]"#)
        guard case .array(let responses)? = await h.next() else { Issue.record("no batch response"); return }
        #expect(responses.count == 3)
        #expect(responses.contains { $0["id"] == .number("1") && $0["result"] == .number("7") })
        #expect(responses.contains { $0["id"] == .null && $0["error"]?["code"] == .number("-32600") })
        h.send(#"[{"jsonrpc":"2.0","method":"notify_hello"},{"jsonrpc":"2.0","method":"notify_hello"}]"#)
        h.send(#"[]"#)
        let single = await h.next()
        #expect(single?["error"]?["code"] == .number("-32600"))
    }

    @Test func shutdownThenExitEndsWithZero() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#)
        #expect(await h.next()?["result"] == .null)
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        #expect(await h.next()?["error"]?["data"]?["kind"] == "serverShutDown")
        h.send(#"{"jsonrpc":"2.0","method":"exit"}"#)
        #expect(await h.exitCode.value == 0)
    }

    @Test func exitWithoutShutdownEndsWithOne() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","method":"exit"}"#)
        #expect(await h.exitCode.value == 1)
    }

    @Test func endOfInputFinishesRequestsInFlightThenExitsZero() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"test/sleep","params":{"ms":300}}"#)
        h.closeInput()
        #expect(await h.next()?["result"]?["slept"] == .number("300"))
        #expect(await h.exitCode.value == 0)
    }

    @Test func oversizedLinesAreAnsweredAndSkipped() async throws {
        let h = ServerHarness { $0.limits.maxMessageBytes = 100 }
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":""# + String(repeating: "x", count: 500) + #""}}"#)
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
        let error = await h.next()
        #expect(error?["id"] == .null && error?["error"]?["data"]?["kind"] == "messageTooLarge")
        #expect(await h.next()?["id"] == .number("2"))
    }

    @Test func orderedMethodsRunInArrivalOrder() async throws {
        let log = Locked<[String]>([])
        var methods = MethodTable()
        methods.on("slowWrite", ordering: .writes("state")) { (_: JSONValue, _) in
            try await Task.sleep(for: .milliseconds(300))
            log.withLock { $0.append("slow") }
            return EmptyResponse()
        }
        methods.on("fastWrite", ordering: .writes("state")) { (_: JSONValue, _) in
            log.withLock { $0.append("fast") }
            return EmptyResponse()
        }
        let h = ServerHarness(methods: methods)
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"slowWrite"}"#)
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"fastWrite"}"#)
        #expect(await h.next()?["id"] == .number("1"))
        #expect(await h.next()?["id"] == .number("2"))
        #expect(log.withLock { $0 } == ["slow", "fast"])
    }

    /// A read of a resource waits for the writes read before it, and for nothing else: a read of
    /// another resource, and a write of another resource, are answered first.
    @Test func readsWaitForEarlierWritesOfTheirResourceOnly() async throws {
        let value = Locked(0)
        var methods = MethodTable()
        Self.addSlowSet(to: &methods, value: value)
        methods.on("getA", ordering: .reads("a")) { (_: JSONValue, _) in
            JSONValue.integer(value.withLock { $0 })
        }
        methods.on("getB", ordering: .reads("b")) { (_: JSONValue, _) in
            JSONValue.integer(-1)
        }
        methods.on("setB", ordering: .writes("b")) { (_: JSONValue, _) in
            EmptyResponse()
        }
        let h = ServerHarness(methods: methods)
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"slowSet"}"#)
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"getA"}"#)
        h.send(#"{"jsonrpc":"2.0","id":3,"method":"getB"}"#)
        h.send(#"{"jsonrpc":"2.0","id":4,"method":"setB"}"#)
        var answers: [JSONValue] = []
        for _ in 0..<4 { if let line = await h.next() { answers.append(line) } }
        let order = answers.compactMap { $0["id"]?.int64Value }
        #expect(order.count == 4)
        #expect(Set(order.prefix(2)) == [3, 4], "the b requests do not wait for the write of a: \(order)")
        #expect(order.suffix(2) == [1, 2], "the read of a follows the write read before it: \(order)")
        #expect(answers.first { $0["id"] == .number("2") }?["result"] == .number("42"))
    }

    /// `slowSet`: writes `a`, setting `value` to 42 after 400 ms.
    static func addSlowSet(to methods: inout MethodTable, value: Locked<Int>) {
        methods.on("slowSet", ordering: .writes("a")) { (_: JSONValue, _) in
            try await Task.sleep(for: .milliseconds(400))
            value.withLock { $0 = 42 }
            return EmptyResponse()
        }
    }

    /// A contract whose requests read `a` only when their params ask for it.
    struct MaybeReadsA: RPCRequest {
        typealias Response = JSONValue
        static let method = "maybeGetA"
        var withA: Bool?
        static func ordering(for params: JSONValue?) -> MethodOrdering { params?["withA"] == .bool(true) ? .reads("a") : .concurrent }
    }

    /// A request orders by its params (`RPCRequest.ordering(for:)`): the one that asks to read `a`
    /// waits for the earlier write of it, the one that does not overtakes it.
    @Test func orderingFollowsEachRequestsParams() async throws {
        let value = Locked(0)
        var methods = MethodTable()
        Self.addSlowSet(to: &methods, value: value)
        methods.on(MaybeReadsA.self) { _, _ in JSONValue.integer(value.withLock { $0 }) }
        #expect(methods["maybeGetA"]?.ordering == .concurrent)
        #expect(methods["maybeGetA"]?.ordering(for: .object(["withA": true])) == .reads("a"))
        let h = ServerHarness(methods: methods)
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"slowSet"}"#)
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"maybeGetA","params":{"withA":true}}"#)
        h.send(#"{"jsonrpc":"2.0","id":3,"method":"maybeGetA","params":{}}"#)
        var answers: [JSONValue] = []
        for _ in 0..<3 { if let line = await h.next() { answers.append(line) } }
        #expect(answers.compactMap { $0["id"]?.int64Value } == [3, 1, 2])
        #expect(answers.first { $0["id"] == .number("3") }?["result"] == .number("0"))
        #expect(answers.first { $0["id"] == .number("2") }?["result"] == .number("42"))
    }

    /// A write waits for the reads read before it, so a read never sees a later write.
    @Test func writesWaitForEarlierReadsOfTheirResource() async throws {
        let value = Locked(0)
        var methods = MethodTable()
        methods.on("slowGet", ordering: .reads("a")) { (_: JSONValue, _) in
            try await Task.sleep(for: .milliseconds(300))
            return JSONValue.integer(value.withLock { $0 })
        }
        methods.on("set", ordering: .writes("a")) { (_: JSONValue, _) in
            value.withLock { $0 = 7 }
            return EmptyResponse()
        }
        let h = ServerHarness(methods: methods)
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"slowGet"}"#)
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"set"}"#)
        let first = await h.next()
        #expect(first?["id"] == .number("1") && first?["result"] == .number("0"))
        #expect(await h.next()?["id"] == .number("2"))
    }

    @Test func invalidParamsNameTheField() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"test/sleep","params":{"ms":"long"}}"#)
        let error = await h.next()?["error"]
        #expect(error?["code"] == .number("-32602"))
        #expect(error?["data"]?["field"] == "ms")
        h.send(#"{"jsonrpc":"2.0","id":2,"method":"test/sleep","params":{}}"#)
        #expect(await h.next()?["error"]?["data"]?["field"] == "ms")
    }

    @Test func internalErrorsDoNotLeakDetails() async throws {
        let h = ServerHarness()
        h.send(#"{"jsonrpc":"2.0","id":1,"method":"test/fail"}"#)
        let error = await h.next()?["error"]
        #expect(error?["code"] == .number("-32603"))
        #expect(error?["data"] == .object(["kind": "internal"]))
    }
}

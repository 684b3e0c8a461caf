import Foundation
import STOLJSON
import STOLProtocol
import STOLRPC
import STOLTestSupport
import Testing

@Suite(.serialized) struct FoundationTests {
    @Test func aSlowRequestIsOvertakenByAFastOne() async throws {
        let engine = try EngineProcess(["--conformance-methods"])
        engine.sendRequest(SleepRequest(ms: 800), id: "slow")
        engine.sendRequest(PingRequest(), id: "fast")
        let first = await engine.next()
        let second = await engine.next()
        #expect(first?["id"] == "fast")
        #expect(second?["id"] == "slow")
    }

    @Test func printInsideAHandlerNeverReachesStdout() async throws {
        let engine = try EngineProcess(["--conformance-methods"])
        #expect(await engine.result(PrintRequest(text: "STRAY-PRINT-MARKER")) == .object([]))
        #expect(await engine.result(PingRequest()) == .object([]))
        engine.closeStdin()
        #expect(await engine.waitForExit() == 0)
        for line in engine.pendingLines {
            #expect(!line.contains("STRAY"))
            #expect((try? JSONParser.parse(Array(line.utf8))) != nil)
        }
        #expect(engine.stderrText.contains("STRAY-PRINT-MARKER"))
    }

    @Test func aRequestSplitInsideAMultibyteCharacterArrivesWhole() async throws {
        let engine = try EngineProcess(["--conformance-methods"])
        let line = #"{"jsonrpc":"2.0","id":1,"method":"test/notify","params":{"method":"echo/back","params":{"name":"Löwe 🦁"}}}"# + "\n"
        for byte in Array(line.utf8) {
            engine.sendBytes([byte])
            try await Task.sleep(for: .microseconds(200))
        }
        let echoed = await engine.next { $0["method"] == "echo/back" }
        #expect(echoed?["params"]?["name"] == "Löwe 🦁")
        #expect(await engine.next { $0["id"] == .number("1") }?["result"] == .object([]))
    }

    @Test func lineSeparatorsAreEscapedOnTheWire() async throws {
        let engine = try EngineProcess(["--conformance-methods"])
        engine.sendLine(#"{"jsonrpc":"2.0","id":1,"method":"test/notify","params":{"method":"x","params":{"t":"a\u2028b\u2029c"}}}"#)
        _ = await engine.next { $0["id"] == .number("1") }
        engine.closeStdin()
        _ = await engine.waitForExit()
        #expect(engine.pendingLines.contains(#"{"jsonrpc":"2.0","method":"x","params":{"t":"a\u2028b\u2029c"}}"#))
    }

    @Test func exitCodesFollowTheLifecycle() async throws {
        let clean = try EngineProcess()
        #expect(await clean.result(ShutdownRequest()) == .null)
        clean.notify(ExitNotification())
        #expect(await clean.waitForExit() == 0)

        let abrupt = try EngineProcess()
        abrupt.notify(ExitNotification())
        #expect(await abrupt.waitForExit() == 1)

        let eof = try EngineProcess(["--conformance-methods"])
        eof.sendRequest(SleepRequest(ms: 200), id: 1)
        eof.closeStdin()
        #expect(await eof.waitForExit() == 0)
        #expect(await eof.next()?["result"]?["slept"] == .number("200"))
    }

    @Test func exitsWhenTheParentProcessDies() async throws {
        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/sleep")
        parent.arguments = ["30"]
        try parent.run()
        let engine = try EngineProcess(["--parent-pid", String(parent.processIdentifier)])
        #expect(await engine.result(PingRequest()) == .object([]))
        parent.terminate()
        parent.waitUntilExit()
        #expect(await engine.waitForExit(timeout: .seconds(10)) != nil)
    }

    @Test func initializeReportsTheServerAndWatchesTheGivenProcess() async throws {
        let engine = try EngineProcess()
        let result = await engine.result(InitializeRequest(processId: getpid(), clientInfo: .init(name: "tests")))
        #expect(result?["serverInfo"]?["name"] == "stol-engine")
        #expect(result?["protocolVersion"] == "1.0")
        #expect(result?["capabilities"]?["cancellation"] == true)
        let bad = await engine.call(InitializeRequest.self, params: .object(["processId": "me"]))
        #expect(bad?["error"]?["data"]?["field"] == "processId")
    }

    @Test func versionAndHelp() throws {
        let version = try EngineBinary.run(["--version"])
        #expect(version.code == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        let help = try EngineBinary.run(["--help"])
        #expect(help.code == 0)
        #expect(help.stdout.contains("build-db"))
    }

    @Test func discoverReturnsTheCommittedOpenRPCDocument() async throws {
        let committed = try Data(contentsOf: EngineBinary.repositoryRoot.appendingPathComponent("protocol/openrpc.json"))
        let bundled = try Data(contentsOf: EngineBinary.repositoryRoot.appendingPathComponent("Sources/STOLEngine/Resources/openrpc.json"))
        #expect(committed == bundled, "Sources/STOLEngine/Resources/openrpc.json must be a copy of protocol/openrpc.json")
        let engine = try EngineProcess()
        let served = await engine.result(DiscoverRequest())
        #expect(served == (try JSONParser.parse([UInt8](committed))))
        #expect(served?["openrpc"]?.stringValue?.hasPrefix("1.") == true)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import STOLRPC

@Suite struct OutputWriterTests {
    /// With the pipe full (the client not reading), waiting progress reports for one token are
    /// replaced by the newest, while other messages all survive, in order.
    @Test func coalescesProgressWhileTheReaderIsSlow() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = OutputWriter(fd: fds[1]) {}
        // Fill the pipe so the writer blocks on its first message.
        writer.send(Array(repeating: UInt8(ascii: "x"), count: 1 << 20))
        while writer.pendingBytes < (1 << 20) {}
        usleep(50_000)
        writer.send(Array("first".utf8))
        for i in 1...100 { writer.sendCoalescing(Array("report \(i)".utf8), token: "t") }
        writer.send(Array("last".utf8))
        #expect(writer.pendingBytes < (1 << 20) + 200)

        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !received.suffix(5).elementsEqual(Array("last\n".utf8)) {
            let n = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, 65536) }
            #expect(n > 0)
            if n <= 0 { break }
            received += chunk[0..<n]
        }
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n").dropFirst().map(String.init)
        #expect(lines == ["first", "report 100", "last"])
    }

    @Test func reportsABrokenPipeOnce() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        signal(SIGPIPE, SIG_IGN)
        close(fds[0])
        let broken = AsyncStream<Void>.makeStream()
        let writer = OutputWriter(fd: fds[1]) { broken.continuation.yield() }
        writer.send(Array("hello".utf8))
        var it = broken.stream.makeAsyncIterator()
        await it.next()
        writer.send(Array("ignored".utf8))
        writer.flush()
        #expect(writer.pendingBytes == 0)
    }
}

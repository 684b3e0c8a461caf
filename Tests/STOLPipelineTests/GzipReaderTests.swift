import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    @Suite struct GzipReading {
        /// About 200 KB of varied lines, so compressed data spans many small chunks.
        static let text: String = (0..<5000).map { "line \($0)\t\(String(repeating: "ab", count: $0 % 17)) é\r\n" }.joined()

        @Test func plainFilePassesThrough() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let file = try dir.write("plain.txt", Self.text)
            let reader = try GzipReader(url: file, chunkSize: 3)
            #expect(!reader.isCompressed)
            #expect(try drain(reader, max: 5) == Array(Self.text.utf8))
        }

        @Test func gzipAcrossChunkBoundaries() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            try dir.write("text.txt", Self.text)
            let file = try dir.gzip("text.txt")
            for (chunk, max) in [(7, 13), (1, 1000), (1 << 16, 1)] {
                let reader = try GzipReader(url: file, chunkSize: chunk)
                #expect(reader.isCompressed)
                #expect(try drain(reader, max: max) == Array(Self.text.utf8))
            }
        }

        @Test func linesAcrossChunkBoundaries() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            try dir.write("text.txt", Self.text)
            let file = try dir.gzip("text.txt")
            let expected = Self.text.components(separatedBy: "\r\n").dropLast()
            for chunk in [2, 5, 4096] {
                let lines = try allLines(LineReader(GzipReader(url: file, chunkSize: 3), chunkSize: chunk))
                #expect(lines == Array(expected))
            }
        }

        @Test func multiMemberGzip() throws {
            let a = try gzipData(Data("first\nsecond\n".utf8))
            let b = try gzipData(Data("third\n".utf8))
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let file = try dir.write("multi.gz", a + b)
            #expect(try allLines(LineReader(GzipReader(url: file, chunkSize: 4))) == ["first", "second", "third"])
        }

        @Test func truncatedInput() throws {
            let full = try gzipData(Data(Self.text.utf8))
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            for cut in [4, full.count / 2] {
                let file = try dir.write("cut\(cut).gz", full.dropLast(cut))
                #expect(throws: GzipError.truncatedInput) { try drain(GzipReader(url: file), max: 1 << 16) }
            }
        }

        @Test func corruptData() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            // A valid gzip header, then a deflate block of the reserved type 3.
            let invalidBlock = try dir.write("block.gz", Data([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xff]))
            // A wrong CRC in the trailer.
            var data = try gzipData(Data(Self.text.utf8))
            data[data.count - 6] ^= 0xff
            let badCRC = try dir.write("crc.gz", data)
            for file in [invalidBlock, badCRC] {
                #expect {
                    try drain(GzipReader(url: file), max: 1 << 16)
                } throws: { error in
                    guard case .corruptData = error as? GzipError else { return false }
                    return true
                }
            }
        }

        @Test func outputCapStopsGzipBombs() throws {
            let size = 4 << 20
            let bomb = try gzipData(Data(count: size))
            #expect(bomb.count < 10_000)
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            let file = try dir.write("bomb.gz", bomb)
            #expect(throws: GzipError.outputLimitExceeded(limit: 1 << 20)) {
                try drain(GzipReader(url: file, maxOutputBytes: 1 << 20), max: 1 << 16)
            }
            // Exactly at the cap is fine; one byte under is not.
            #expect(try drain(GzipReader(url: file, maxOutputBytes: size), max: 1 << 16).count == size)
            #expect(throws: GzipError.outputLimitExceeded(limit: size - 1)) {
                try drain(GzipReader(url: file, maxOutputBytes: size - 1), max: 1 << 16)
            }
            // The cap counts output of plain files too.
            let plain = try dir.write("plain", Data(count: 100))
            #expect(throws: GzipError.outputLimitExceeded(limit: 99)) { try drain(GzipReader(url: plain, maxOutputBytes: 99), max: 7) }
        }

        /// A gzip file read through `LineReader(url:)` inflates on a thread ahead of the lines: the
        /// same bytes in any chunking, its errors (truncation, the output cap) after the bytes
        /// before them, and a reader dropped half-way stops its thread.
        @Test func readAheadGivesTheSameBytesAndErrors() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            try dir.write("text.txt", Self.text)
            let file = try dir.gzip("text.txt")
            for (chunk, depth, max) in [(7, 1, 13), (1 << 12, 2, 1000), (1 << 18, 4, 1 << 16)] {
                let reader = ReadAheadSource(try GzipReader(url: file, chunkSize: 5), chunkSize: chunk, depth: depth)
                #expect(try drain(reader, max: max) == Array(Self.text.utf8))
            }
            let expected = Self.text.components(separatedBy: "\r\n").dropLast()
            #expect(try allLines(LineReader(url: file)) == Array(expected))

            let full = try gzipData(Data(Self.text.utf8))
            let cut = try dir.write("cut.gz", full.dropLast(full.count / 2))
            var got: [UInt8] = []
            let truncated = ReadAheadSource(try GzipReader(url: cut), chunkSize: 1 << 10)
            #expect(throws: GzipError.truncatedInput) {
                while try truncated.read(into: &got, max: 100) > 0 {}
            }
            #expect(!got.isEmpty && got == Array(Self.text.utf8.prefix(got.count)))
            let bomb = try dir.write("bomb.gz", try gzipData(Data(count: 4 << 20)))
            #expect(throws: GzipError.outputLimitExceeded(limit: 1 << 20)) {
                try allLines(LineReader(url: bomb, maxOutputBytes: 1 << 20))
            }

            // Dropped after one line of a large file: the thread stops rather than inflating the rest.
            let large = try dir.write("large.gz", try gzipData(Data(String(repeating: Self.text, count: 40).utf8)))
            weak var source: GzipReader?
            do {
                let inner = try GzipReader(url: large)
                source = inner
                let lines = LineReader(ReadAheadSource(inner, chunkSize: 1 << 10, depth: 2))
                #expect(try lines.nextLine() == "line 0\t é")
            }
            // The thread lets go of the file once it sees the queue closed.
            var waited = 0
            while source != nil, waited < 500 { usleep(10_000); waited += 1 }
            #expect(source == nil)
        }

        @Test func missingFileReportsErrno() {
            #expect(throws: GzipError.io(errno: ENOENT, path: "/nonexistent/stol.gz")) {
                try GzipReader(url: URL(fileURLWithPath: "/nonexistent/stol.gz"))
            }
        }

        @Test func lineEndingsAndByteOrderMark() throws {
            let source = MemoryByteSource("\u{FEFF}one\r\ntwo\n\nthree\r\nfour")
            #expect(try allLines(LineReader(source, chunkSize: 1)) == ["one", "two", "", "three", "four"])
            let reader = LineReader(MemoryByteSource("a\nb\n"))
            #expect(try reader.nextLine() == "a")
            #expect(try reader.nextLine() == "b")
            #expect(reader.lineNumber == 2)
            #expect(try reader.nextLine() == nil)
            #expect(try allLines(LineReader(MemoryByteSource(""))) == [])
        }

        @Test func shortFilesAndEmptyFiles() throws {
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            #expect(try drain(GzipReader(url: dir.write("empty", "")), max: 10) == [])
            #expect(try drain(GzipReader(url: dir.write("one", "x")), max: 10) == Array("x".utf8))
            try dir.write("empty.txt", "")
            #expect(try drain(GzipReader(url: dir.gzip("empty.txt")), max: 10) == [])
        }
    }
}

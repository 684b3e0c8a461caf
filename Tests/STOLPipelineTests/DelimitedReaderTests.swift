import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

@testable import STOLEngine
@testable import STOLPipeline

extension ImporterTests {
    @Suite struct DelimitedReading {
        func records(_ text: String, _ format: DelimitedReader.Format, chunk: Int = 3) throws -> [DelimitedReader.Record] {
            let reader = DelimitedReader(LineReader(MemoryByteSource(text), chunkSize: chunk), format: format)
            var records: [DelimitedReader.Record] = []
            while let record = try reader.next() { records.append(record) }
            return records
        }

        @Test func csvQuotingAndQuotedNewlines() throws {
            let text = [
                "a,b,c\r",
                #"1,"x, y","say ""hi"""\#r"#,
                #"2,"first line\#r"#,
                "second line",
                "",
                #"fourth",z"#,
                "",
                #"3,,"",end"#,
                #"4,plain"quote,"tail"after"#,
            ].joined(separator: "\n")
            let got = try records(text, .csv)
            #expect(got.map(\.line) == [1, 2, 3, 8, 9])
            #expect(got[0].fields == ["a", "b", "c"])
            #expect(got[1].fields == ["1", "x, y", "say \"hi\""])
            #expect(got[2].fields == ["2", "first line\nsecond line\n\nfourth", "z"])
            #expect(got[3].fields == ["3", "", "", "end"])
            #expect(got[4].fields == ["4", "plain\"quote", "tailafter"])
            #expect(got[4][7] == "" && got[4][nil] == "")
        }

        @Test func unterminatedQuoteNamesItsLine() throws {
            #expect(throws: DelimitedError.unterminatedQuote(line: 2)) {
                try records("a,b\n1,\"open\n2,3\n", .csv)
            }
        }

        @Test func runawayRecordIsBounded() throws {
            let text = "a\n\"" + String(repeating: "x\n", count: 100)
            let reader = DelimitedReader(LineReader(MemoryByteSource(text)), format: .csv, maxRecordBytes: 50)
            _ = try reader.next()
            #expect(throws: DelimitedError.recordTooLong(line: 2, limit: 50)) { try reader.next() }
        }

        /// A field over the field limit, or a line over the line limit, costs its record only:
        /// it is reported with its line and reading goes on (the line is read past, not held).
        @Test func overLongFieldsAndLinesSkipTheirRecordOnly() throws {
            let long = String(repeating: "a", count: 200), longer = String(repeating: "b", count: 5_000)
            let cases: [(DelimitedReader.Format, String)] = [
                (.tsv, "id\tname\n1\t\(long)\n2\tok\n3\t\(longer)\n4\tfine"),
                (.csv, "id,name\n1,\(long)\n2,ok\n3,\(longer)\n4,fine\n"),
                (.csv, "id,name\n1,\"\(long)\"\n2,ok\n3,\"\(longer)\"\n4,fine\n"),
            ]
            for (format, text) in cases {
                for chunk in [7, 4096] {
                    let lines = LineReader(MemoryByteSource(text), chunkSize: chunk, maxLineBytes: 1_000)
                    let reader = DelimitedReader(lines, format: format, maxFieldBytes: 100)
                    var issues = SourceIssues()
                    var got: [[String]] = []
                    while let record = try reader.next(file: "t", issues: &issues) { got.append(record.fields) }
                    #expect(got == [["id", "name"], ["2", "ok"], ["4", "fine"]], "\(format), chunk \(chunk)")
                    #expect(issues.map(\.description) == [
                        "t:2: a field is longer than 100 bytes; row skipped", "t:4: the line is longer than 1000 bytes; row skipped",
                    ], "\(format), chunk \(chunk)")
                    #expect(issues.allSatisfy { $0.kind == .tooLong && $0.rows == 1 })
                }
            }
            // The default limits: 64 KiB a field, 16 MiB a line.
            #expect(DelimitedReader.defaultMaxFieldBytes == 65_536)
            #expect(LineReader.defaultMaxLineBytes == 16_777_216)
        }

        /// A line longer than the limit throws once, and the next line reads as usual.
        @Test func aLineOverTheLimitIsReadPast() throws {
            let lines = LineReader(MemoryByteSource("short\n" + String(repeating: "x", count: 10_000) + "\r\nafter\n"), chunkSize: 16, maxLineBytes: 100)
            #expect(try lines.nextLine() == "short")
            #expect(throws: LineTooLong(line: 2, limit: 100)) { try lines.nextLine() }
            #expect(try lines.nextLine() == "after")
            #expect(lines.lineNumber == 3)
            #expect(try lines.nextLine() == nil)
        }

        @Test func tsvHasNoQuoting() throws {
            let got = try records("id\tname\n1\t\"quoted, text\"\n\n2\t\n", .tsv)
            #expect(got.map(\.fields) == [["id", "name"], ["1", "\"quoted, text\""], ["2", ""]])
            #expect(got.map(\.line) == [1, 2, 4])
        }

        @Test func headerLookup() throws {
            let header = DelimitedHeader(DelimitedReader.Record(fields: ["id", " Parent_ID ", "name"], line: 1))
            #expect(header.index(of: "id") == 0)
            #expect(header.index(of: "parent_id") == 1)
            #expect(try header.require("name") == 2)
            #expect(throws: DelimitedError.missingColumn("rank", available: ["id", "Parent_ID", "name"])) { try header.require("rank") }
            let empty = DelimitedReader(LineReader(MemoryByteSource("")), format: .csv)
            #expect(throws: DelimitedError.emptyInput) { try DelimitedHeader(reading: empty) }
        }

        @Test func formatFromFileName() {
            #expect(DelimitedReader.Format.fromFileName("nodes.tsv.gz") == .tsv)
            #expect(DelimitedReader.Format.fromFileName("MDD.CSV") == .csv)
            #expect(DelimitedReader.Format.fromFileName("table.gz") == nil)
            #expect(DelimitedReader.Format.fromFileName("table.txt") == nil)
        }
    }
}

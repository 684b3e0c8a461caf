import Foundation
import Testing

@testable import STOLEngine
@testable import STOLPipeline
import STOLProtocol

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

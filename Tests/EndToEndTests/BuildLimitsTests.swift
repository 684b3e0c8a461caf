#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLTestSupport
import Testing

/// `build-db`'s memory follows the taxa it keeps, not the bad rows it meets, and it never stores
/// (or holds whole) a field past its length limits.
@Suite(.serialized) struct BuildLimitsTests {
    /// Runs the binary to its end, reading its VmHWM (the kernel's own peak of resident memory)
    /// as it goes; returns the exit code, stdout, stderr and the last VmHWM seen, in KiB.
    static func runMeasured(_ arguments: [String], in dir: URL) throws -> (code: Int32, stdout: String, stderr: String, peakKiB: Int) {
        let out = dir.appendingPathComponent("run.out"), err = dir.appendingPathComponent("run.err")
        for file in [out, err] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = EngineBinary.url
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        var peak = 0
        while process.isRunning {
            if let memory = ProcessMemory.read(process.processIdentifier) { peak = max(peak, memory.peak) }
            usleep(10_000)
        }
        process.waitUntilExit()
        defer { for file in [out, err] { try? FileManager.default.removeItem(at: file) } }
        return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8), peak)
    }

    /// Two million rows repeating one id: before, every row and every issue was held (978 MB
    /// for 7 taxa from a 120 KB archive). Now a repeated id costs a count.
    @Test func millionsOfRepeatedRowsCostNoMemory() throws {
        let dir = try ChecklistBuildTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let lineage = [
            ["1", "", "", "Animalia", "kingdom", "accepted"], ["2", "1", "", "Chordata", "phylum", "accepted"],
            ["3", "2", "", "Aves", "class", "accepted"], ["4", "3", "", "Suliformes", "order", "accepted"],
            ["5", "4", "", "Sulidae", "family", "accepted"], ["6", "5", "", "Morus", "genus", "accepted"],
            ["7", "6", "", "Morus bassanus", "species", "accepted"],
        ]
        let source = try ChecklistBuildTests.archive(lineage, in: dir)
        // Two million more rows of id 7, appended in large writes.
        let repeats = 2_000_000
        let handle = try FileHandle(forWritingTo: source.appendingPathComponent("taxa.txt"))
        try handle.seekToEnd()
        let row = "7\t6\t\tMorus bassanus\tspecies\taccepted\n"
        let block = Data(String(repeating: row, count: 10_000).utf8)
        for _ in 0..<(repeats / 10_000) { try handle.write(contentsOf: block) }
        try handle.close()

        let out = dir.appendingPathComponent("out.sqlite")
        let run = try Self.runMeasured(["build-db", "--dwca", source.path, "--out", out.path, "--allow-partial", "--top-n", "0"], in: dir)
        print("BuildLimitsTests: \(repeats) repeated rows: exit \(run.code), VmHWM \(run.peakKiB / 1024) MiB")
        #expect(run.code == 0, "\(run.stderr.suffix(2000))")
        #expect(run.stdout.contains("taxa 7,"), "\(run.stdout)")
        #expect(run.stdout.contains("skipped rows \(repeats), issues \(repeats)"), "\(run.stdout)")
        #expect(run.stderr.contains("by kind: \(repeats) duplicate ids (\(repeats) rows skipped)"), "\(run.stderr.suffix(2000))")
        #expect(run.stderr.components(separatedBy: "\n").count < 100, "the issues are summarised, not listed")
        #expect(run.peakKiB > 0 && run.peakKiB < 200 * 1024, "VmHWM \(run.peakKiB / 1024) MiB")
    }

    /// A 100 MB unquoted field (a line past the 16 MiB line limit) and a 1 MB one (past the 64 KiB
    /// field limit) each cost their row, reported with its line; neither is stored nor held whole.
    @Test func overLongFieldsAreRefusedNotStored() throws {
        let dir = try ChecklistBuildTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let table = dir.appendingPathComponent("tree.csv")
        _ = FileManager.default.createFile(atPath: table.path, contents: nil)
        let handle = try FileHandle(forWritingTo: table)
        var head = "id,parent_id,name\n1,,Life\n"
        for id in 2...21 { head += "\(id),1,Clade number \(id)\n" }
        try handle.write(contentsOf: Data(head.utf8))
        try handle.write(contentsOf: Data("22,1,".utf8))  // line 23
        let megabyte = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<100 { try handle.write(contentsOf: megabyte) }
        try handle.write(contentsOf: Data("\n23,1,".utf8))  // line 24
        try handle.write(contentsOf: megabyte)
        try handle.write(contentsOf: Data("\n24,1,Last clade\n".utf8))
        try handle.close()

        let out = dir.appendingPathComponent("out.sqlite")
        let run = try Self.runMeasured(["build-db", "--table", table.path, "--out", out.path, "--top-n", "0"], in: dir)
        print("BuildLimitsTests: 100 MB and 1 MB fields: exit \(run.code), VmHWM \(run.peakKiB / 1024) MiB")
        #expect(run.code == 0, "\(run.stderr)")
        #expect(run.stderr.contains("tree.csv:23: the line is longer than 16777216 bytes; row skipped"), "\(run.stderr)")
        #expect(run.stderr.contains("tree.csv:24: a field is longer than 65536 bytes; row skipped"), "\(run.stderr)")
        #expect(run.stdout.contains("taxa 22,"), "\(run.stdout)")
        let longest = try SQLiteCLI.run(out, "SELECT max(length(scientific_name)) FROM taxa", readOnly: true)
        #expect(longest == ["15"], "\(longest)")
        #expect(run.peakKiB > 0 && run.peakKiB < 200 * 1024, "VmHWM \(run.peakKiB / 1024) MiB")
    }
}

import Foundation
import STOLProtocol
import STOLTestSupport
import Testing

/// The engine is offline by design: these tests fail if the built binary links or calls any
/// networking API.
///
/// They inspect the binary itself, not its dependencies: its own undefined dynamic symbols
/// (`nm -D --undefined-only`) and the libraries it names directly (`DT_NEEDED`, from
/// `readelf -d`). Foundation's shared library has socket code of its own, but it is only
/// reachable through symbols that would show up here (`URLSession`, `Host`, ...), and the
/// URL-loading half of Foundation lives in FoundationNetworking, which must never be linked.
@Suite(.serialized) struct PrivacyGuardTests {
    /// C functions that open, use or resolve network connections.
    static let forbiddenFunctions: Set<String> = [
        "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
        "send", "sendto", "sendmsg", "sendmmsg", "recv", "recvfrom", "recvmsg", "recvmmsg",
        "getaddrinfo", "getnameinfo", "gethostbyname", "gethostbyname2", "gethostbyname_r",
        "gethostbyname2_r", "gethostbyaddr", "gethostbyaddr_r", "getservbyname", "getservbyname_r",
        "res_query", "res_search", "res_nquery", "res_nsearch", "__res_query", "__res_search",
    ]
    /// Substrings of symbol names from networking libraries (Swift mangled names included).
    static let forbiddenSymbolParts = [
        "URLSession", "FoundationNetworking", "CFNetwork", "CFSocket", "NSURLConnection", "curl_",
        "nghttp2_", "SSL_connect", "gnutls_",
    ]
    /// Substrings of directly linked library names.
    static let forbiddenLibraryParts = ["FoundationNetworking", "curl", "CFNetwork", "nghttp", "libssl", "gnutls"]

    struct Inspection {
        var undefinedSymbols: [String]
        var neededLibraries: [String]

        /// Every networking symbol or library found, as readable lines; empty when clean.
        var findings: [String] {
            var out: [String] = []
            for symbol in undefinedSymbols {
                if PrivacyGuardTests.forbiddenFunctions.contains(symbol) {
                    out.append("calls \(symbol)()")
                } else if let part = PrivacyGuardTests.forbiddenSymbolParts.first(where: { symbol.contains($0) }) {
                    out.append("references \(symbol) (\(part))")
                }
            }
            for library in neededLibraries {
                if let part = PrivacyGuardTests.forbiddenLibraryParts.first(where: { library.contains($0) }) {
                    out.append("links \(library) (\(part))")
                }
            }
            return out
        }
    }

    /// Lists `binary`'s own undefined dynamic symbols (versions stripped) and its DT_NEEDED libraries.
    static func inspect(_ binary: URL) throws -> Inspection {
        let nm = try tool("nm", ["-D", "--undefined-only", binary.path])
        let symbols = nm.split(separator: "\n").compactMap { line -> String? in
            guard let name = line.split(separator: " ").last else { return nil }
            return String(name.split(separator: "@").first ?? name)
        }
        let readelf = try tool("readelf", ["-d", "--wide", binary.path])
        let needed = readelf.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]")
            else { return nil }
            return String(line[line.index(after: open)..<close])
        }
        return Inspection(undefinedSymbols: symbols, neededLibraries: needed)
    }

    @Test func theEngineBinaryNeitherLinksNorCallsNetworkingAPIs() throws {
        let binary = EngineBinary.url
        #expect(FileManager.default.isExecutableFile(atPath: binary.path), "build the engine first: \(binary.path)")
        let inspection = try Self.inspect(binary)
        // The inspection itself must have worked, or an empty finding list proves nothing.
        #expect(inspection.undefinedSymbols.contains("write"), "nm listed no undefined symbols of \(binary.path)")
        #expect(inspection.neededLibraries.contains { $0.hasPrefix("libc.so") }, "readelf listed no NEEDED libraries")
        #expect(inspection.findings.isEmpty, "networking found in \(binary.path): \(inspection.findings)")
    }

    @Test(.enabled(if: PrivacyGuardTests.cCompiler != nil, "needs a C compiler to build the counter-example"))
    func theGuardFlagsABinaryThatOpensASocket() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("net.c")
        try Data("""
            #include <netdb.h>
            #include <sys/socket.h>
            int main(int argc, char **argv) {
                struct addrinfo *info = 0;
                if (argc > 5) getaddrinfo("example.org", "80", 0, &info);
                int fd = socket(AF_INET, SOCK_STREAM, 0);
                if (argc > 5 && info) connect(fd, info->ai_addr, info->ai_addrlen);
                return fd < 0;
            }
            """.utf8).write(to: source)
        let binary = dir.appendingPathComponent("net")
        _ = try Self.tool(Self.cCompiler!, ["-O0", "-o", binary.path, source.path])
        let findings = try Self.inspect(binary).findings
        #expect(findings.contains("calls socket()"), "\(findings)")
        #expect(findings.contains("calls connect()"), "\(findings)")
        #expect(findings.contains("calls getaddrinfo()"), "\(findings)")
    }

    @Test(.enabled(if: PrivacyGuardTests.cCompiler != nil, "needs a C compiler to build the counter-example"))
    func theGuardFlagsABinaryLinkingANetworkingLibrary() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Stand-ins named like the real libraries: only the DT_NEEDED entries matter.
        for name in ["curl", "FoundationNetworking"] {
            let stub = dir.appendingPathComponent("\(name).c")
            try Data("int \(name.lowercased())_stub(void) { return 0; }\n".utf8).write(to: stub)
            _ = try Self.tool(Self.cCompiler!, ["-shared", "-fPIC", "-o", dir.appendingPathComponent("lib\(name).so").path, stub.path])
        }
        let main = dir.appendingPathComponent("main.c")
        try Data("int main(void) { return 0; }\n".utf8).write(to: main)
        let binary = dir.appendingPathComponent("linked")
        _ = try Self.tool(Self.cCompiler!, [
            "-o", binary.path, main.path, "-L", dir.path, "-Wl,--no-as-needed", "-lcurl", "-lFoundationNetworking",
        ])
        let findings = try Self.inspect(binary).findings
        #expect(findings.contains { $0.hasPrefix("links libcurl.so") }, "\(findings)")
        #expect(findings.contains { $0.hasPrefix("links libFoundationNetworking.so") }, "\(findings)")
    }

    // MARK: Helpers

    static let cCompiler: String? = ["cc", "gcc", "clang"].compactMap(findInPath).first

    static func findInPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    struct ToolFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs a tool found in PATH; returns its stdout, throwing when it fails.
    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        guard let path = name.hasPrefix("/") ? name : findInPath(name) else {
            throw ToolFailure(description: "\(name) not found in PATH")
        }
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let outPath = dir.appendingPathComponent("out"), errPath = dir.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outPath.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outPath)
        process.standardError = try FileHandle(forWritingTo: errPath)
        try process.run()
        process.waitUntilExit()
        let out = String(decoding: try Data(contentsOf: outPath), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let err = String(decoding: try Data(contentsOf: errPath), as: UTF8.self)
            throw ToolFailure(description: "\(name) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(err)")
        }
        return out
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stol-privacy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

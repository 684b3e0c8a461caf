import Foundation
import STOLJSON

/// Facts about this build of the engine.
public enum EngineInfo {
    public static let name = "stol-engine"
    public static let version = "0.1.0"
    /// The protocol version `initialize` reports; see protocol/README.md.
    public static let protocolVersion = "1.0"
    /// How this binary was compiled; shown by `about` and in diagnostics exports.
    public static var build: String {
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        #if arch(x86_64)
        let arch = "x86_64"
        #elseif arch(arm64)
        let arch = "arm64"
        #else
        let arch = "other"
        #endif
        #if os(Linux)
        let os = "linux"
        #elseif os(macOS)
        let os = "macos"
        #else
        let os = "other"
        #endif
        return "\(configuration) \(os)-\(arch)"
    }

    /// The OpenRPC document served by `rpc.discover` (protocol/openrpc.json), re-serialised on one
    /// line: the file is pretty-printed, and a raw newline would split the response in two.
    public static func openRPCDocument() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openrpc", withExtension: "json", subdirectory: "Resources") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return JSONWriter.encode(try JSONParser.parse([UInt8](try Data(contentsOf: url))))
    }
}

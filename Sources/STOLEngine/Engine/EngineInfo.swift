import Foundation
import STOLRPC

/// Facts about this build of the engine.
public enum EngineInfo {
    public static let name = "stol-engine"
    public static let version = "0.1.0"
    /// The protocol version `initialize` reports; see protocol/README.md.
    public static let protocolVersion = "1.0"

    /// The OpenRPC document served by `rpc.discover` (protocol/openrpc.json), re-serialised on one
    /// line: the file is pretty-printed, and a raw newline would split the response in two.
    public static func openRPCDocument() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openrpc", withExtension: "json", subdirectory: "Resources") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return JSONWriter.encode(try JSONParser.parse([UInt8](try Data(contentsOf: url))))
    }
}

import Foundation

/// Facts about this build of the engine.
public enum EngineInfo {
    public static let name = "stol-engine"
    public static let version = "0.1.0"
    /// The protocol version `initialize` reports; see protocol/README.md.
    public static let protocolVersion = "1.0"

    /// The OpenRPC document served by `rpc.discover`; identical to protocol/openrpc.json.
    public static func openRPCDocument() throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openrpc", withExtension: "json", subdirectory: "Resources") else {
            throw CocoaError(.fileNoSuchFile)
        }
        return [UInt8](try Data(contentsOf: url))
    }
}

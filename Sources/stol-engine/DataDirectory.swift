import Foundation

/// The platform's application-data directory for the engine.
enum DataDirectory {
    /// `$XDG_DATA_HOME/stol-engine` (default `~/.local/share/stol-engine`) on Linux,
    /// `~/Library/Application Support/stol-engine` on macOS.
    static func `default`() -> URL {
        let env = ProcessInfo.processInfo.environment
        #if os(macOS)
        let base = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first!
        #else
        let base: URL
        if let xdg = env["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else {
            base = URL(fileURLWithPath: env["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/share")
        }
        #endif
        return base.appendingPathComponent("stol-engine")
    }
}

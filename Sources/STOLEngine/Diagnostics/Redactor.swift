import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces what could identify the user (home directory, data directory, user and host names)
/// with placeholders, in every line that reaches the diagnostics file or an export.
public struct Redactor: Sendable {
    /// (text, placeholder), longest first so a path is replaced before the user name inside it.
    let replacements: [(String, String)]
    /// Names under 3 characters are only replaced as whole words, so "vm" does not eat "kvm".
    let words: [(String, String)]

    public init(dataDirectory: URL?) {
        var pairs: [(String, String)] = []
        func add(_ text: String?, _ placeholder: String) {
            guard let text, !text.isEmpty, text != "/" else { return }
            pairs.append((text, placeholder))
        }
        for url in [dataDirectory, dataDirectory?.standardizedFileURL, dataDirectory?.resolvingSymlinksInPath()] {
            guard let path = url?.path else { continue }
            add(path.hasSuffix("/") ? String(path.dropLast()) : path, "<data-dir>")
        }
        let env = ProcessInfo.processInfo.environment
        var users = [env["USER"], env["LOGNAME"]]
        var homes = [env["HOME"], NSHomeDirectory()]
        if let entry = getpwuid(getuid()) {
            users.append(entry.pointee.pw_name.map { String(cString: $0) })
            homes.append(entry.pointee.pw_dir.map { String(cString: $0) })
        }
        for home in homes { add(home, "<home>") }
        var hosts = [ProcessInfo.processInfo.hostName]
        var buffer = [CChar](repeating: 0, count: 256)
        if gethostname(&buffer, buffer.count) == 0 {
            hosts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        for host in hosts {
            add(host, "<host>")
            if let short = host.split(separator: ".").first, !short.isEmpty { add(String(short), "<host>") }
        }
        for user in users { add(user, "<user>") }
        var seen = Set<String>()
        let unique = pairs.filter { seen.insert($0.0).inserted }.sorted { $0.0.count > $1.0.count }
        replacements = unique.filter { $0.0.count >= 3 }
        words = unique.filter { $0.0.count < 3 }
    }

    public func scrub(_ text: String) -> String {
        var out = text
        for (needle, placeholder) in replacements { out = out.replacingOccurrences(of: needle, with: placeholder) }
        for (needle, placeholder) in words {
            let pattern = "(?<![A-Za-z0-9])" + NSRegularExpression.escapedPattern(for: needle) + "(?![A-Za-z0-9])"
            out = out.replacingOccurrences(of: pattern, with: placeholder, options: .regularExpression)
        }
        return out
    }

    /// Log lines also lose long digit runs: taxon ids (favourites) must never leave in an export.
    public func scrubLogLine(_ text: String) -> String {
        scrub(text).replacingOccurrences(of: "[0-9]{7,}", with: "<n>", options: .regularExpression)
    }
}

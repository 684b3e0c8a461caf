import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import STOLSupport

/// The opt-in diagnostics log: `<data-dir>/Diagnostics/diagnostics.log`, rotated to
/// `diagnostics.1.log` at 1 MiB, so at most 2 MiB on disk. Lines are redacted before they are
/// kept; only `info` and above are kept. Writes happen on a serial queue, never on the caller.
public final class DiagnosticsLog: Sendable {
    public static let maxFileBytes: Int64 = 1 << 20
    static let recentCapacity = 400
    public static let fileNames = ["diagnostics.1.log", "diagnostics.log"]

    private struct State {
        var directory: URL?
        var enabled = false
        var redactor = Redactor(dataDirectory: nil)
        var recent: [String] = []
    }

    private struct FileState {
        var fd: Int32 = -1
        var size: Int64 = 0
    }

    private let state = Locked(State())
    private let file = Locked(FileState())
    private let queue = DispatchQueue(label: "stol.diagnostics", qos: .utility)

    public init() {}

    /// Where the files live and whether they are kept (the persisted setting).
    public func configure(directory: URL, redactor: Redactor, enabled: Bool) {
        state.withLock {
            $0.directory = directory
            $0.redactor = redactor
            $0.enabled = enabled
        }
    }

    public var isEnabled: Bool { state.withLock { $0.enabled } }

    public var directory: URL? { state.withLock { $0.directory } }

    public func setEnabled(_ enabled: Bool) {
        state.withLock { $0.enabled = enabled }
        if !enabled { queue.async { self.closeFile() } }
    }

    /// Called by `DiagnosticsLogHandler` for every line at `info` or above.
    public func record(level: Logger.Level, label: String, message: String, metadata: Logger.Metadata?) {
        var text = "\(Self.timestamp()) \(level) \(label): \(message)"
        if let metadata, !metadata.isEmpty {
            text += " " + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        let (line, enabled, directory) = state.withLock { s -> (String, Bool, URL?) in
            let line = s.redactor.scrubLogLine(text).replacingOccurrences(of: "\n", with: " ")
            s.recent.append(line)
            if s.recent.count > Self.recentCapacity { s.recent.removeFirst(s.recent.count - Self.recentCapacity) }
            return (line, s.enabled, s.directory)
        }
        guard enabled, let directory else { return }
        queue.async { self.append(line + "\n", in: directory) }
    }

    /// Waits until every line recorded so far is on disk.
    func flush() { queue.sync {} }

    private func append(_ line: String, in directory: URL) {
        guard isEnabled else { return }
        file.withLock { f in
            if f.fd < 0 {
                // Never through a link: a folder or file that is one is refused, and the line is
                // kept in memory only (stderr has it too).
                guard (try? OwnedPath.ensureDirectory(directory)) != nil else { return }
                f.fd = open(directory.appendingPathComponent("diagnostics.log").path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
                guard f.fd >= 0 else { return }
                var info = stat()
                guard fstat(f.fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                    close(f.fd)
                    f.fd = -1
                    return
                }
                f.size = Int64(info.st_size)
            }
            // A line is written whole or not at all: a short write (a full disk) is cut back off,
            // so the file never holds a torn line.
            let bytes = Array(line.utf8)
            let written = bytes.withUnsafeBytes { write(f.fd, $0.baseAddress, $0.count) }
            if written == bytes.count {
                f.size += Int64(written)
            } else if written > 0 {
                _ = ftruncate(f.fd, off_t(f.size))
            }
            if f.size >= Self.maxFileBytes {
                close(f.fd)
                f.fd = -1
                rename(directory.appendingPathComponent("diagnostics.log").path, directory.appendingPathComponent("diagnostics.1.log").path)
            }
        }
    }

    private func closeFile() {
        file.withLock { f in
            if f.fd >= 0 { close(f.fd) }
            f.fd = -1
        }
    }

    /// Bytes of the diagnostics files on disk. Blocking: call off the cooperative pool.
    func bytes() -> Int64 {
        flush()
        guard let directory else { return 0 }
        return Self.fileNames.reduce(0) { total, name in
            total + (((try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path))?[.size] as? NSNumber)?.int64Value ?? 0)
        }
    }

    /// Removes the files (the in-memory lines of this run go too). Blocking.
    func delete() throws {
        flush()
        closeFile()
        state.withLock { $0.recent.removeAll() }
        guard let directory else { return }
        for name in Self.fileNames {
            let url = directory.appendingPathComponent(name)
            // unlink removes a link itself, never what it points at.
            if OwnedPath.exists(url), unlink(url.path) != 0 {
                throw DataDirectoryError.unwritable(url.path, String(cString: strerror(errno)))
            }
        }
    }

    /// The newest `limit` lines: from the files when diagnostics were kept, else from this run. Blocking.
    func recentLines(limit: Int = 200) -> [String] {
        flush()
        var lines: [String] = []
        if let directory {
            for name in Self.fileNames {
                let url = directory.appendingPathComponent(name)
                guard !OwnedPath.isSymbolicLink(url), let data = FileManager.default.contents(atPath: url.path) else { continue }
                lines += String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
            }
        }
        if lines.isEmpty { lines = state.withLock { $0.recent } }
        return Array(lines.suffix(limit))
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), Int(now.tv_nsec / 1_000_000))
    }
}

/// Sends `info` and above to a `DiagnosticsLog`; combine with the stderr handler in a
/// `MultiplexLogHandler`.
public struct DiagnosticsLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info {
        didSet { if logLevel < .info { logLevel = .info } }
    }
    let label: String
    let sink: DiagnosticsLog

    public init(label: String, sink: DiagnosticsLog) {
        self.label = label
        self.sink = sink
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        guard event.level >= .info else { return }
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        sink.record(level: event.level, label: label, message: "\(event.message)", metadata: merged)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process whose death ends the server (`--parent-pid`, `initialize.processId`), and how to
/// tell that it has died: gone from the process table, a zombie not yet reaped, or, when it is
/// this process's own parent, replaced as parent (the orphan was adopted by another process).
struct ParentProcess: Sendable {
    let pid: Int32
    /// Whether `pid` was this process's parent when watching began.
    private let isOwnParent: Bool

    init(pid: Int32) {
        self.pid = pid
        self.isOwnParent = getppid() == pid
    }

    /// Why the process counts as dead, or nil while it lives.
    func goneReason() -> String? {
        if kill(pid, 0) != 0 && errno == ESRCH { return "no such process" }
        if isOwnParent && getppid() != pid { return "this process was re-parented" }
        if Self.state(of: pid) == UInt8(ascii: "Z") { return "a zombie" }
        return nil
    }

    /// The one-letter state of `pid` from `/proc/<pid>/stat` (`R`, `S`, `Z`, …); nil where there
    /// is no procfs. The state follows the command name, which is in parentheses and may itself
    /// hold spaces and parentheses, so it is read after the last `)`.
    static func state(of pid: Int32) -> UInt8? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let bytes = buffer[0..<count]
        guard let paren = bytes.lastIndex(of: UInt8(ascii: ")")),
              let state = bytes[(paren + 1)...].first(where: { $0 != UInt8(ascii: " ") }) else { return nil }
        return state
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Protects the protocol stream from everything that writes to fd 1.
enum StdoutGuard {
    /// Duplicates the real stdout to a private descriptor for the protocol writer and makes
    /// fd 1 a copy of stderr. Returns the private descriptor.
    static func claimStdout() -> Int32 {
        let protocolFD = dup(STDOUT_FILENO)
        precondition(protocolFD >= 0, "cannot duplicate stdout")
        _ = fcntl(protocolFD, F_SETFD, FD_CLOEXEC)
        fflush(nil)
        _ = dup2(STDERR_FILENO, STDOUT_FILENO)
        return protocolFD
    }
}

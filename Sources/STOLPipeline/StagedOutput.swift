#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import STOLSupport

/// A build's output, made in a folder of its own beside its destination
/// (`.<name>.build-XXXXXX`) and renamed over the destination only once complete.
///
/// Until `commit()` the destination is untouched, byte for byte; `abandon()` (a failure, a full
/// disk, a signal) removes the folder and everything in it, so nothing is left beside the
/// destination either way. The rename is atomic: a reader sees the old file or the new one.
/// Only a process killed outright (SIGKILL) leaves the folder behind.
public final class StagedOutput: Sendable {
    /// The file the build replaces (or creates).
    public let destination: URL
    /// The folder beside `destination` that holds everything the build writes.
    public let folder: URL

    private enum Phase { case staging, committed, abandoned }
    private let phase = Locked(Phase.staging)

    /// Makes the folder beside `destination`; throws when it cannot be made there.
    public init(replacing destination: URL) throws {
        self.destination = destination
        let pattern = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).build-XXXXXX").path
        var template = Array(pattern.utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) != nil }
        guard made else {
            throw StagedOutputError("cannot make a folder beside \(destination.path): \(String(cString: strerror(errno)))")
        }
        folder = URL(fileURLWithPath: template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    /// Where the build writes its file; its side files go beside it, in `folder`.
    public var file: URL { folder.appendingPathComponent(destination.lastPathComponent) }

    /// Renames the finished file over the destination, then removes the folder. Throws, with the
    /// destination as it was, when the rename fails or the output was abandoned.
    public func commit() throws {
        try phase.withLock { phase in
            guard phase == .staging else { throw StagedOutputError("the build was stopped; \(destination.path) was left as it was") }
            guard rename(file.path, destination.path) == 0 else {
                throw StagedOutputError("cannot replace \(destination.path): \(String(cString: strerror(errno)))")
            }
            phase = .committed
        }
        Self.remove(folder)
    }

    /// Removes the folder and everything in it, unless the output is already in place. Returns
    /// false only when it is (the build finished). Safe from any thread, also while the build is
    /// still writing into the folder, and more than once.
    @discardableResult
    public func abandon() -> Bool {
        phase.withLock { phase in
            guard phase != .committed else { return false }
            phase = .abandoned
            Self.remove(folder)
            return true
        }
    }

    /// Removes `folder` whole. A file the build creates in it meanwhile makes the removal fail,
    /// so it is tried again; once the folder is gone, nothing more can be created in it.
    private static func remove(_ folder: URL) {
        let fm = FileManager.default
        for _ in 0..<100 {
            try? fm.removeItem(at: folder)
            if !fm.fileExists(atPath: folder.path) { return }
        }
    }
}

/// Why a staged output could not be made or put in place.
public struct StagedOutputError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

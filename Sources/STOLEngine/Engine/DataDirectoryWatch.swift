import Foundation
import STOLSupport

/// Notices cheaply that another engine changed the shared files of the data directory: the
/// identities (device, inode, size, modification time) of `settings.json` and
/// `Databases/reference.sqlite`, two `lstat` calls. When they changed it runs the engine's
/// catch-up once, however many callers ask at the same moment, and every caller returns only
/// after it, so none goes on with a database another engine switched away or deleted.
actor DataDirectoryWatch {
    private struct Stamp: Equatable {
        var settings: FileIdentity?
        var reference: FileIdentity?
    }

    private nonisolated let settingsPath: String
    private nonisolated let referencePath: String
    /// What the last catch-up started from; nil before the first.
    private var seen: Stamp?
    private var running: Task<Void, Never>?
    /// What the engine is known to be in step with: the stamp of the last look that found nothing
    /// new, or of the last catch-up once it ended (nil before the first and while one runs), and
    /// the last moment `isUnchanged(checkedAfter:)` confirmed it.
    private nonisolated let lastSeen = Locked<(stamp: Stamp?, confirmedAt: Int?)>((nil, nil))

    init(dataDirectory: URL) {
        settingsPath = EngineSettings(dataDirectory: dataDirectory).url.path
        referencePath = ReferenceService.referenceURL(dataDirectory).path
    }

    /// Whether the files are as they were when the engine last caught up, with no catch-up
    /// running, for callers that cannot wait (answers given on the intake thread). False means:
    /// go through `check` first.
    ///
    /// `moment` grows with the client's input (the read that delivered the request). The client
    /// sent every request of one moment before that read returned, so one look at the disk made
    /// after it (two `lstat` calls) answers for all of them.
    nonisolated func isUnchanged(checkedAfter moment: Int) -> Bool {
        let known = lastSeen.withLock { $0 }
        guard let stamp = known.stamp else { return false }
        if known.confirmedAt == moment { return true }
        guard Self.stamp(settingsPath, referencePath) == stamp else { return false }
        lastSeen.withLock { if $0.stamp == stamp { $0.confirmedAt = max($0.confirmedAt ?? moment, moment) } }
        return true
    }

    private static func stamp(_ settings: String, _ reference: String) -> Stamp {
        Stamp(settings: .of(path: settings), reference: .of(path: reference))
    }

    /// Has `follower` catch up when the files changed since the last catch-up started (or waits
    /// for the one running, then looks again).
    func check(_ follower: some DataDirectoryFollower) async {
        let paths = (settings: settingsPath, reference: referencePath)
        while true {
            if let running {
                await running.value
                if self.running == running { self.running = nil }
                continue
            }
            let stamp = try? await OffPool.run { Self.stamp(paths.settings, paths.reference) }
            // Another caller may have started a catch-up while this one read.
            if running != nil { continue }
            guard let stamp else { return }
            guard stamp != seen else {
                lastSeen.withLock { if $0.stamp != stamp { $0 = (stamp, nil) } }
                return
            }
            seen = stamp
            lastSeen.withLock { $0 = (nil, nil) }
            let task = Task { await follower.followDataDirectory() }
            running = task
            await task.value
            if running == task {
                running = nil
                lastSeen.withLock { $0 = (stamp, nil) }
            }
            return
        }
    }
}

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

    private let settingsURL: URL
    private let referenceURL: URL
    /// What the last catch-up started from; nil before the first.
    private var seen: Stamp?
    private var running: Task<Void, Never>?

    init(dataDirectory: URL) {
        settingsURL = EngineSettings(dataDirectory: dataDirectory).url
        referenceURL = ReferenceService.referenceURL(dataDirectory)
    }

    /// Has `follower` catch up when the files changed since the last catch-up started (or waits
    /// for the one running, then looks again).
    func check(_ follower: some DataDirectoryFollower) async {
        let urls = (settings: settingsURL, reference: referenceURL)
        while true {
            if let running {
                await running.value
                if self.running == running { self.running = nil }
                continue
            }
            let stamp = try? await OffPool.run { Stamp(settings: .of(urls.settings), reference: .of(urls.reference)) }
            // Another caller may have started a catch-up while this one read.
            if running != nil { continue }
            guard let stamp, stamp != seen else { return }
            seen = stamp
            let task = Task { await follower.followDataDirectory() }
            running = task
            await task.value
            if running == task { running = nil }
            return
        }
    }
}

import Foundation
import STOLProtocol
import STOLSupport

/// Engines sharing a data directory (a GUI and a shell pipe, two windows): each follows the
/// others' changes without a restart.
extension Engine: DataDirectoryFollower {
    /// Starts looking every `interval` for other engines' changes (favourites, the active database,
    /// the diagnostics setting) and hands each resulting event to `send`; serve mode writes them
    /// as notifications. Events found by the check before a request go to `send` too. `close()`
    /// stops it.
    public func watchSharedState(every interval: Duration = .milliseconds(250), _ send: @escaping @Sendable (EngineEvent) -> Void) {
        events.withLock { $0 = send }
        let task = Task { [weak self] in
            while (try? await Task.sleep(for: interval)) != nil {
                guard let self else { return }
                await self.catchUpWithDataDirectory()
                await self.catchUpWithFavorites()
            }
        }
        watcher.withLock { running in
            running?.cancel()
            running = task
        }
    }

    /// Stops the watcher started by `watchSharedState` and waits for its last look to end.
    func stopWatchingSharedState() async {
        let task = watcher.withLock { running in
            defer { running = nil }
            return running
        }
        task?.cancel()
        await task?.value
        events.withLock { $0 = nil }
    }

    /// Hands `event` to the client, when one is listening.
    func emit(_ event: EngineEvent) {
        events.withLock { $0 }?(event)
    }

    /// When `settings.json` or `reference.sqlite` changed on disk: reopens the database the
    /// setting and the file say is active and follows the diagnostics setting. Cheap when
    /// nothing changed (two `lstat` calls); runs before every request that reads the database.
    func catchUpWithDataDirectory() async {
        await watch.check(self)
    }

    func isDataDirectoryUnchanged(checkedAfter moment: Int) -> Bool {
        watch.isUnchanged(checkedAfter: moment)
    }

    func followDataDirectory() async {
        if let database = await reference.follow() {
            await lca.prepare(database)
            emit(.switched(to: database))
        }
        let settings = EngineSettings(dataDirectory: configuration.dataDirectory)
        guard let enabled = try? await OffPool.run({ settings.diagnosticsEnabled }), enabled != diagnostics.isEnabled else { return }
        diagnostics.setEnabled(enabled)
        logger.info("another engine turned the diagnostics log \(enabled ? "on" : "off")")
        emit(.diagnosticsChanged(DiagnosticsDidChangeNotification(enabled: enabled)))
    }

    /// Announces another engine's change to the favourites (never opens the file itself).
    private func catchUpWithFavorites() async {
        if let count = try? await favorites.outsideChangeIfOpen() { emit(.favoritesChanged(FavoritesDidChangeNotification(count: count))) }
    }
}

import Foundation
import STOLSupport

extension Engine {
    /// Ends the engine's work before the process exits, whatever ended it (EOF, `exit`, a signal):
    /// stops watching the data directory, cancels running imports and waits (up to 10 s) for them to remove their staged files,
    /// closes the favourites file (always self-contained on disk) and removes the engine's scratch
    /// folder. Safe to call more than once.
    public func close() async {
        await stopWatchingSharedState()
        _ = await reference.cancelImport()
        _ = await media.cancelImport()
        for _ in 0..<500 {
            let running = await reference.importRunning
            let mediaRunning = await media.importRunning
            if !running, !mediaRunning { break }
            try? await Task.sleep(for: .milliseconds(20))
        }
        await favorites.close()
        scratch.remove()
        try? await OffPool.run { [diagnostics] in diagnostics.flush() }
    }
}

import Foundation

extension Engine {
    /// Ends the engine's work before the process exits, whatever ended it (EOF, `exit`, a signal):
    /// stops a running import so that its temporary files are removed, and leaves the favourites
    /// file self-contained on disk. Safe to call more than once.
    public func close() async {
        _ = await reference.cancelImport()
    }
}

/// What catches up with the data directory when another engine changed it (the engine).
protocol DataDirectoryFollower: AnyObject, Sendable {
    /// Cheap when nothing changed; returns once this engine is in step.
    func catchUpWithDataDirectory() async
    /// Reopens, switches and follows settings after a change was seen.
    func followDataDirectory() async
    /// Whether nothing on disk changed since the last catch-up, asked without waiting; one look
    /// per `moment` (see `DataDirectoryWatch.isUnchanged(checkedAfter:)`).
    func isDataDirectoryUnchanged(checkedAfter moment: Int) -> Bool
}

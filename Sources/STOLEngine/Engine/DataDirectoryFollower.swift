/// What catches up with the data directory when another engine changed it (the engine).
protocol DataDirectoryFollower: AnyObject, Sendable {
    /// Cheap when nothing changed; returns once this engine is in step.
    func catchUpWithDataDirectory() async
    /// Reopens, switches and follows settings after a change was seen.
    func followDataDirectory() async
}

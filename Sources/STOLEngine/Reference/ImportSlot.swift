import Foundation

/// The one import a service runs at a time (a reference database, a media pack): the running
/// import's job, so that it can be cancelled and a second import refused.
struct ImportSlot {
    private var job: ImportJob?

    /// Whether an import holds the slot.
    var isTaken: Bool { job != nil }

    /// A new job holding the slot, or nil when another import holds it. `release()` it when done.
    mutating func take() -> ImportJob? {
        guard job == nil else { return nil }
        let job = ImportJob()
        self.job = job
        return job
    }

    mutating func release() {
        job = nil
    }

    /// Stops the running import at its next chunk; false when none is running.
    func cancel() -> Bool {
        guard let job else { return false }
        job.cancel()
        return true
    }
}

extension StolFileImporter {
    /// Stages `source` for `job`, up to the integrity check, and makes sure that neither the job
    /// nor the calling task was cancelled before or meanwhile (`cancelled`; the staged files gone).
    func stageUncancelled(_ source: URL, job: ImportJob, report: @escaping Report) async throws(ReferenceError) -> Staged {
        if Task.isCancelled { throw .cancelled }
        let staged = try await stage(source, job: job, report: report).get()
        if job.isCancelled || Task.isCancelled {
            unlink(staged.database.path)
            unlink(staged.stolCopy.path)
            throw .cancelled
        }
        return staged
    }
}

import Foundation

/// A checklist format read from an archive (a `.zip` or a folder) through `ChecklistArchive`,
/// within its size limits: `--dwca` and `--coldp`.
public protocol ChecklistArchiveFormat {
    /// The limits the archive is read within (decompressed sizes, ratios).
    var limits: ChecklistArchive.Limits { get set }
    /// An importer with the default limits.
    init()
    /// Reads an opened archive; `name` (its file or folder name) labels the issues found.
    func parse(_ archive: ChecklistArchive, named name: String) throws -> ChecklistOutput
}

extension ChecklistArchiveFormat {
    /// The taxa, plus what was counted on the way.
    public typealias Output = ChecklistOutput

    /// An importer reading within `limits`.
    public init(limits: ChecklistArchive.Limits) {
        self.init()
        self.limits = limits
    }

    /// Opens the archive at `url` within `limits` and reads it.
    public func parse(_ url: URL) throws -> ChecklistOutput {
        try parse(try ChecklistArchive(url: url, limits: limits), named: url.lastPathComponent)
    }
}

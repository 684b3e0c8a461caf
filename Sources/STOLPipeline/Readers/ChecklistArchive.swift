import Foundation
import ZIPFoundation
import STOLSupport
import STOLEngine

/// The files of a published checklist (a Darwin Core Archive or a ColDP package), read from a
/// folder or from a `.zip` without unpacking it.
///
/// Zip entries are only ever looked up by name and streamed into memory a chunk at a time: an
/// entry's name never becomes a path on disk. Names that are absolute or climb out with `..`
/// are refused and listed in `refusedEntries`. Decompressed sizes are bounded as the `.stol`
/// importer bounds them, and an entry that inflates more than `maxRatio` times is refused as a
/// zip bomb, whether its header admits it or not.
public final class ChecklistArchive {
    /// Bounds on what a zip may inflate to.
    public struct Limits: Sendable {
        /// Total decompressed bytes over all entries read.
        public var maxDecompressedBytes: Int64 = StolFileImporter.Limits().maxDecompressedBytes
        /// Decompressed bytes per compressed byte of one entry (text compresses 5–20 times).
        public var maxRatio: Int64 = 1_000
        /// Entries smaller than this are never refused for their ratio.
        public var ratioFloorBytes: Int64 = 1 << 20
        public init() {}
    }

    /// The folder or zip, for messages.
    public let url: URL
    /// Relative names of the files it holds, `/`-separated.
    public let entries: [String]
    /// Zip entry names that are not plain relative paths; never read.
    public let refusedEntries: [String]
    public let limits: Limits
    private let isZip: Bool
    /// Decompressed bytes read so far, shared by the entries' readers.
    private let budget: DecompressionBudget

    public init(url: URL, limits: Limits = Limits()) throws {
        self.url = url
        self.limits = limits
        self.budget = DecompressionBudget(limit: limits.maxDecompressedBytes)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw SourceIssue("\(url.path) does not exist", at: nil)
        }
        if isDirectory.boolValue {
            isZip = false
            refusedEntries = []
            entries = Self.listFolder(url)
        } else {
            isZip = true
            let archive: Archive
            do { archive = try Archive(url: url, accessMode: .read) } catch {
                throw SourceIssue("\(url.lastPathComponent) is not a readable zip archive (\(error))", at: nil)
            }
            var names: [String] = [], refused: [String] = []
            for entry in archive where entry.type == .file {
                if Self.isPlainRelativePath(entry.path) { names.append(entry.path) } else { refused.append(entry.path) }
            }
            entries = names
            refusedEntries = refused
        }
    }

    /// `archive.zip:entry` or `folder/entry`, for messages.
    public func describe(_ entry: String) -> String {
        isZip ? "\(url.lastPathComponent):\(entry)" : url.appendingPathComponent(entry).lastPathComponent
    }

    /// The entry whose name matches `name` exactly, or else ignoring case.
    public func find(_ name: String) -> String? {
        entries.first { $0 == name } ?? entries.first { $0.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// Streams one entry (named as `entries` lists it).
    public func open(_ entry: String) throws -> any ByteSource {
        guard entries.contains(entry) else { throw SourceIssue("\(describe(entry)) is not in the archive", at: nil) }
        if !isZip {
            return try GzipReader(url: url.appendingPathComponent(entry), maxOutputBytes: Int(clamping: limits.maxDecompressedBytes))
        }
        return try ZipEntrySource(archive: url, entry: entry, limits: limits, budget: budget, name: describe(entry))
    }

    /// A whole small entry (meta.xml, metadata), at most `max` bytes.
    public func read(_ entry: String, max: Int = 16 << 20) throws -> Data {
        let source = try open(entry)
        var out: [UInt8] = []
        while try source.read(into: &out, max: 1 << 16) > 0 {
            if out.count > max { throw SourceIssue("\(describe(entry)) is larger than \(max) bytes", at: nil) }
        }
        return Data(out)
    }

    /// Relative, `/`-separated, no empty, `.` or `..` component, no backslash or NUL.
    static func isPlainRelativePath(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// Regular files of `folder` and of its subfolders one level down, without following links.
    private static func listFolder(_ folder: URL) -> [String] {
        let fm = FileManager.default
        var out: [String] = []
        func regularFiles(_ dir: URL, prefix: String, depth: Int) {
            guard let names = try? fm.contentsOfDirectory(atPath: dir.path) else { return }
            for name in names.sorted() {
                let url = dir.appendingPathComponent(name)
                guard let type = try? fm.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType else { continue }
                if type == .typeRegular {
                    out.append(prefix + name)
                } else if type == .typeDirectory, depth > 0 {
                    regularFiles(url, prefix: prefix + name + "/", depth: depth - 1)
                }
            }
        }
        regularFiles(folder, prefix: "", depth: 1)
        return out
    }
}

/// Decompressed bytes counted across the entries of one archive.
final class DecompressionBudget: Sendable {
    private let used = Locked<Int64>(0)
    let limit: Int64

    init(limit: Int64) { self.limit = limit }

    /// Adds `bytes`; false once the total passes the limit.
    func spend(_ bytes: Int) -> Bool {
        used.withLock { used in
            used += Int64(bytes)
            return used <= limit
        }
    }
}

extension ChecklistArchive {
    /// An import result that names the archive as its source and lists, as skipped, every entry
    /// refused for its name: where each importer starts.
    func startResult() -> ImportResult {
        var result = ImportResult()
        let name = url.lastPathComponent
        result.sourceFiles = [name]
        for refused in refusedEntries {
            result.skipped.append(SourceIssue("zip entry '\(refused)' is not a plain relative path; ignored", at: SourceLocation(file: name, line: 0), kind: .unreadableSource, rows: 0))
        }
        return result
    }
}

import Foundation
import ZIPFoundation
import STOLEngine

/// Streams one zip entry. ZIPFoundation pushes inflated chunks to a callback; a thread of its
/// own runs that and hands the chunks over through a queue of a few chunks, so the reader pulls
/// bytes with at most a few chunks of the entry in memory.
///
/// Refuses a zip bomb twice over: before reading, by the sizes the entry declares, and while
/// reading, by the bytes it really produces (declared sizes can lie).
final class ZipEntrySource: ByteSource {
    private let chunks: QueuedChunks

    init(archive url: URL, entry path: String, limits: ChecklistArchive.Limits, budget: DecompressionBudget, name: String) throws {
        let archive: Archive
        do { archive = try Archive(url: url, accessMode: .read) } catch {
            throw SourceIssue("\(url.lastPathComponent) is not a readable zip archive (\(error))", at: nil)
        }
        guard let entry = archive[path] else { throw SourceIssue("\(name) is not in the archive", at: nil) }
        let declared = Int64(clamping: entry.uncompressedSize), packed = max(Int64(clamping: entry.compressedSize), 1)
        if declared > budget.limit {
            throw SourceIssue("\(name) declares \(declared) bytes, more than the limit of \(budget.limit); refused as a zip bomb", at: nil)
        }
        if declared > limits.ratioFloorBytes, declared / packed > limits.maxRatio {
            throw SourceIssue("\(name) inflates \(declared / packed) times (limit \(limits.maxRatio)); refused as a zip bomb", at: nil)
        }
        let pipe = BoundedQueue<Data>(capacity: 4)
        chunks = QueuedChunks(pipe)
        let work = UncheckedSendable((archive, entry))
        let thread = Thread {
            let (archive, entry) = work.value
            var produced: Int64 = 0
            do {
                _ = try archive.extract(entry, bufferSize: 1 << 16) { data in
                    produced += Int64(data.count)
                    guard budget.spend(data.count) else {
                        throw SourceIssue("\(name) inflates past the limit of \(budget.limit) bytes; refused as a zip bomb", at: nil)
                    }
                    if produced > limits.ratioFloorBytes, produced / packed > limits.maxRatio {
                        throw SourceIssue("\(name) inflates more than \(limits.maxRatio) times its compressed size; refused as a zip bomb", at: nil)
                    }
                    guard pipe.put(data) else { throw CancellationError() }
                }
                pipe.finish(nil)
            } catch let issue as SourceIssue {
                pipe.finish(issue)
            } catch {
                pipe.finish(SourceIssue("\(name) could not be read (\(error))", at: nil))
            }
        }
        thread.name = "zip entry reader"
        thread.start()
    }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        try chunks.read(into: buffer)
    }
}

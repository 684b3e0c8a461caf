import STOLProtocol
import STOLSupport

/// Bounds what one batch answers. A batch's answers are held until its last part is ready and
/// then written as one line, so without a bound a batch of large answers (1,000 lists of 20,000
/// favourites: 1.49 GB) is held whole in memory while the client does not read.
///
/// The answers of a batch are kept, in the order they finish, while together they fit in `limit`
/// bytes. The first answer that does not fit, and every part of the batch after it (those still
/// running when they finish, those not started yet without running), is answered instead with a
/// `-32003` error of kind `batchAnswerTooLarge`: the client sends those requests again, alone or
/// in smaller batches. Notifications have no answer and are not affected.
final class BatchAnswerBudget: Sendable {
    /// The most bytes of answers one batch keeps.
    let limit: Int
    private struct State {
        var kept = 0
        var full = false
    }
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether an answer has already been refused: every later part is refused too, so a part
    /// not started yet is answered with `refusal(id:)` and not run.
    var isFull: Bool { state.withLock { $0.full } }

    /// The answer to keep for a part that has finished: `answer` while it still fits, else the
    /// refusal for `id`.
    func admit(_ answer: [UInt8], id: RequestID) -> [UInt8] {
        let fits = state.withLock { s -> Bool in
            guard !s.full, s.kept + answer.count <= limit else {
                s.full = true
                return false
            }
            s.kept += answer.count
            return true
        }
        return fits ? answer : refusal(id: id)
    }

    /// The error answered, with `id`, in place of an answer that does not fit.
    func refusal(id: RequestID) -> [UInt8] {
        Envelope.response(id: id, error: .kind(
            ErrorCode.notPossible, .batchAnswerTooLarge, "Batch answer too large",
            ["limit": .integer(limit),
             "detail": .string("with this answer the batch's answers would pass their limit of \(limit) bytes; send this request again alone or in a smaller batch")]))
    }
}

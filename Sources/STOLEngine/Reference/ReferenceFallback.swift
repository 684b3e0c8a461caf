import Foundation
import STOLProtocol

extension ReferenceFallback {
    /// The fallback for a reference found unusable (`detail`) at `date`.
    init(detail: String, at date: Date = Date()) {
        self.init(detail: detail, at: Timestamp.iso(date))
    }
}

extension ReferenceError {
    /// The import or switch error for a database that cannot be opened.
    init(opening error: DatabaseOpenError) {
        switch error {
        case let .incompatibleSchema(found, expected): self = .incompatibleSchema(found: found, expected: expected)
        case .corrupt(let detail): self = .databaseCorrupt(detail)
        default: self = .databaseCorrupt("\(error)")
        }
    }
}

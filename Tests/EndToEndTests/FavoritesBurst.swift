import STOLJSON
import STOLProtocol
import STOLRPC
import Testing

/// A burst of favourites changes replayed on a model, for the SIGKILL tests: which stored states
/// a restart may find, given the answers that arrived before the kill.
enum FavoritesBurst {
    enum Change { case add, remove, toggle }

    /// The states after each prefix of `changes` that holds every acknowledged change (the engine
    /// may have applied more than it answered before it died); checks each toggle's answer too.
    static func allowedStates(
        from state: [Int64: Bool], _ changes: [(Change, Int64)], acknowledged: [Int: JSONValue], label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [[Int64: Bool]] {
        let last = acknowledged.keys.max() ?? -1
        var model = state
        var allowed = last < 0 ? [model] : []
        for (i, (change, id)) in changes.enumerated() {
            switch change {
            case .add: model[id] = true
            case .remove: model[id] = false
            case .toggle: model[id]?.toggle()
            }
            if change == .toggle, let result = acknowledged[i] {
                #expect(result["isFavorite"] == .bool(model[id]!), "\(label): change \(i)", sourceLocation: sourceLocation)
            }
            if i >= last { allowed.append(model) }
        }
        return allowed
    }
}

import Foundation
import STOLJSON
import STOLProtocol

extension MethodTable {
    /// The methods used by the JSON-RPC 2.0 specification's examples and by the test suites.
    /// Servers expose them only when asked to (`--conformance-methods`).
    public static func conformanceMethods() -> MethodTable {
        var table = MethodTable()
        table.onRaw("subtract") { params, _ in
            let minuend: JSONValue?
            let subtrahend: JSONValue?
            switch params {
            case .array(let values)?:
                guard values.count == 2 else { throw RPCError.invalidParams(field: nil, "expected [minuend, subtrahend]") }
                (minuend, subtrahend) = (values[0], values[1])
            case .object?:
                (minuend, subtrahend) = (params?["minuend"], params?["subtrahend"])
            default:
                throw RPCError.invalidParams(field: nil, "expected [minuend, subtrahend] or {minuend, subtrahend}")
            }
            let a = try number(minuend, field: "minuend")
            let b = try number(subtrahend, field: "subtrahend")
            return try result(a - b)
        }
        table.onRaw("sum") { params, _ in
            guard case .array(let values)? = params else { throw RPCError.invalidParams(field: nil, "expected an array of numbers") }
            var total = 0.0
            for (i, value) in values.enumerated() { total += try number(value, field: String(i)) }
            return try result(total)
        }
        table.onRaw("notify_hello") { _, _ in 19 }
        table.onRaw("get_data") { _, _ in ["hello", 5] }
        table.on("test/sleep") { (params: SleepParams, _) in
            guard (0...60_000).contains(params.ms) else { throw RPCError.invalidParams(field: "ms", "must be between 0 and 60000") }
            try await Task.sleep(for: .milliseconds(params.ms))
            return JSONValue.object(["slept": .integer(params.ms)])
        }
        table.on("test/progress") { (params: ProgressParams, context) in
            guard (1...1000).contains(params.steps) else { throw RPCError.invalidParams(field: "steps", "must be between 1 and 1000") }
            let delay = params.delayMs ?? 0
            guard (0...10_000).contains(delay) else { throw RPCError.invalidParams(field: "delayMs", "must be between 0 and 10000") }
            context.progress?.begin(title: "Counting")
            for step in 1...params.steps {
                if delay > 0 { try await Task.sleep(for: .milliseconds(delay)) } else { try Task.checkCancellation() }
                context.progress?.report(fraction: Double(step) / Double(params.steps), message: "step \(step) of \(params.steps)")
            }
            context.progress?.end(message: "done")
            return JSONValue.object(["steps": .integer(params.steps)])
        }
        table.on("test/print") { (params: PrintParams, _) in
            // Deliberately the plain `print` a careless handler would use: it must land on stderr.
            print(params.text)
            fflush(nil)
            return EmptyResponse()
        }
        table.onRaw("test/fail") { _, _ in
            struct Boom: Error {}
            throw Boom()
        }
        table.on("test/notify") { (params: NotifyParams, context) in
            // JSON-RPC allows a notification's params to be only an object or an array, or absent.
            switch params.params {
            case nil, .null?, .object?, .array?: break
            default: throw RPCError.invalidParams(field: "params", "must be an object or an array")
            }
            context.notify(params.method, params.params ?? .null)
            return EmptyResponse()
        }
        return table
    }

    private struct SleepParams: Decodable, Sendable { var ms: Int }
    private struct ProgressParams: Decodable, Sendable { var steps: Int; var delayMs: Int? }
    private struct PrintParams: Decodable, Sendable { var text: String }
    private struct NotifyParams: Decodable, Sendable { var method: String; var params: JSONValue? }

    private static func number(_ value: JSONValue?, field: String) throws -> Double {
        guard let value else { throw RPCError.invalidParams(field: field, "is required") }
        guard let number = value.doubleValue else { throw RPCError.invalidParams(field: field, "must be a number, not \(value.typeName)") }
        return number
    }

    /// A finite number as JSON; infinities and NaN have no JSON form, so they are refused.
    private static func result(_ value: Double) throws -> JSONValue {
        guard value.isFinite else { throw RPCError.invalidParams(field: nil, "the result is not a finite number") }
        return .number(JSONWriter.numberText(value))
    }
}

/// A result that writes its own compact JSON, so the hottest answers skip `JSONEncoder`.
///
/// It must write exactly what `ResultEncoding` would through `JSONEncoder` (sorted keys, absent
/// optionals left out); tests compare the two.
public protocol JSONWritable: Encodable {
    func writeJSON(into out: inout [UInt8])
}

extension Array: JSONWritable where Element: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, element) in enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            element.writeJSON(into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }
}

extension Dictionary: JSONWritable where Key == String, Value: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) {
        JSONObject.write(into: &out) { object in
            for key in keys.sorted() { object.member(dynamic: key, self[key]!) }
        }
    }
}

extension String: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) { JSONWriter.writeString(self, into: &out) }
}

extension Int: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) { out.append(contentsOf: String(self).utf8) }
}

extension Int64: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) { out.append(contentsOf: String(self).utf8) }
}

extension Double: JSONWritable {
    /// As `JSONEncoder` writes it (`JSONWriter.numberText`); the value must be finite.
    public func writeJSON(into out: inout [UInt8]) { out.append(contentsOf: JSONWriter.numberText(self).utf8) }
}

extension Bool: JSONWritable {
    public func writeJSON(into out: inout [UInt8]) { out.append(contentsOf: (self ? "true" : "false").utf8) }
}

/// One JSON object being written; members are written in the order given, so callers give
/// them in sorted key order.
public struct JSONObject {
    private var bytes: [UInt8] = []
    private var first = true

    /// Writes `{`, the members `body` adds, and `}` to `out`.
    public static func write(into out: inout [UInt8], _ body: (inout JSONObject) -> Void) {
        var object = JSONObject()
        swap(&object.bytes, &out)  // moves the buffer in and back out without copying it
        object.bytes.append(UInt8(ascii: "{"))
        body(&object)
        object.bytes.append(UInt8(ascii: "}"))
        swap(&object.bytes, &out)
    }

    /// Appends `"key":value` for a key only known at run time (escaped as any string).
    public mutating func member<Value: JSONWritable>(dynamic key: String, _ value: Value) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        JSONWriter.writeString(key, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        value.writeJSON(into: &bytes)
    }

    /// Appends `"key":value`. The key is a literal, copied as it is: the writers' keys are plain
    /// ASCII names that need no escape.
    public mutating func member<Value: JSONWritable>(_ key: StaticString, _ value: Value) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: #"":"#.utf8)
        value.writeJSON(into: &bytes)
    }

    /// Appends `"key":value` unless `value` is nil, as `JSONEncoder` leaves absent optionals out.
    public mutating func member<Value: JSONWritable>(_ key: StaticString, ifPresent value: Value?) {
        if let value { member(key, value) }
    }
}

extension Optional: JSONWritable where Wrapped: JSONWritable {
    /// `null` when nil, as `JSONEncoder` writes nil elements of an array.
    public func writeJSON(into out: inout [UInt8]) {
        if let self { self.writeJSON(into: &out) } else { out.append(contentsOf: "null".utf8) }
    }
}

extension JSONWriter {
    /// The document as committed: two-space indentation, `": "` and `","` separators, non-ASCII
    /// kept as is, and a final newline (what Python's `json.dumps(indent=2, ensure_ascii=False)`
    /// writes, so hand edits and generated edits look the same).
    public static func formatted(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        writeDocument(value, indent: 0, into: &out)
        out.append(0x0A)
        return out
    }

    private static func writeDocument(_ value: JSONValue, indent: Int, into out: inout [UInt8]) {
        func newline(_ depth: Int) {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
        }
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .string(let s): writeString(s, documentForm: true, into: &out)
        case .array(let items):
            guard !items.isEmpty else { return out.append(contentsOf: "[]".utf8) }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeDocument(item, indent: indent + 1, into: &out)
            }
            newline(indent)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return out.append(contentsOf: "{}".utf8) }
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(member.key, documentForm: true, into: &out)
                out.append(contentsOf: ": ".utf8)
                writeDocument(member.value, indent: indent + 1, into: &out)
            }
            newline(indent)
            out.append(UInt8(ascii: "}"))
        }
    }
}

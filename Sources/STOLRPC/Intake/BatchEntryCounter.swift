/// Counts the entries of a batch line without parsing it, so that a batch over the size cap is
/// refused before a single value is built (a 64 MiB line of `{}` would otherwise become tens of
/// millions of values).
enum BatchEntryCounter {
    /// The number of top-level entries when `line` is one JSON array whose brackets and strings
    /// balance, with nothing but whitespace after it; nil otherwise (the parser then reports it).
    /// Entries are not validated.
    static func count(_ line: [UInt8]) -> Int? {
        line.withUnsafeBufferPointer { bytes -> Int? in
            var i = 0
            while i < bytes.count, isWhitespace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { return nil }
            var openers: [UInt8] = [UInt8(ascii: "[")]
            var entries = 0
            var entryStarted = false
            var inString = false
            i += 1
            while i < bytes.count {
                let byte = bytes[i]
                i += 1
                if inString {
                    if byte == UInt8(ascii: "\\") { i += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                    entryStarted = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    openers.append(byte)
                    entryStarted = true
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    let opener = byte == UInt8(ascii: "]") ? UInt8(ascii: "[") : UInt8(ascii: "{")
                    guard openers.popLast() == opener else { return nil }
                    if openers.isEmpty {
                        while i < bytes.count, isWhitespace(bytes[i]) { i += 1 }
                        guard i == bytes.count else { return nil }
                        return entries + (entryStarted ? 1 : 0)
                    }
                case UInt8(ascii: ",") where openers.count == 1:
                    entries += 1
                    entryStarted = false
                default:
                    if !isWhitespace(byte) { entryStarted = true }
                }
            }
            return nil
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

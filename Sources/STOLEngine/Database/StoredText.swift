/// Checks the bytes of a TEXT value as SQLite hands them over: SQLite never checks that text is
/// UTF-8, and keeps a NUL inside it (C string readers then cut the text there, byte-count readers
/// do not, so one name would read two ways).
enum StoredText {
    /// What is wrong with some text bytes.
    enum Problem: Equatable {
        case invalidUTF8(offset: Int)
        case nul(offset: Int)

        /// "text that is not valid UTF-8 (at byte 3)".
        var found: String {
            switch self {
            case .invalidUTF8(let offset): "text that is not valid UTF-8 (at byte \(offset))"
            case .nul(let offset): "text holding a NUL character (at byte \(offset))"
            }
        }
    }

    /// The first problem of `count` bytes at `bytes`, or nil for valid UTF-8 without NUL. Eight
    /// ASCII bytes at a time; a full check only where a byte is not ASCII.
    static func problem(_ bytes: UnsafePointer<UInt8>?, count: Int) -> Problem? {
        guard let bytes, count > 0 else { return nil }
        let raw = UnsafeRawPointer(bytes)
        var i = 0
        while i < count {
            if i + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                // No byte ≥ 0x80 and no zero byte: eight plain ASCII characters.
                let zero = (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
                if word & 0x8080_8080_8080_8080 == 0, zero == 0 {
                    i += 8
                    continue
                }
            }
            let lead = bytes[i]
            if lead == 0 { return .nul(offset: i) }
            if lead < 0x80 {
                i += 1
                continue
            }
            // A multi-byte sequence: the ranges of RFC 3629 (no overlongs, surrogates or > U+10FFFF).
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return .invalidUTF8(offset: i)
            }
            guard i + length <= count else { return .invalidUTF8(offset: i) }
            let second = bytes[i + 1]
            guard second >= low, second <= high else { return .invalidUTF8(offset: i) }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return .invalidUTF8(offset: i) }
            i += length
        }
        return nil
    }
}

/// A `CREATE TABLE` statement as import compares it: tokens without comments or layout,
/// keywords and identifiers in lower case, quoted identifiers unquoted, split into the statement's
/// head (`create table taxa`), one definition per column or table constraint, and its tail
/// (`without rowid`). Two tables with the same definitions have the same columns, types, NOT
/// NULL, defaults, collations, CHECK constraints and references, however their SQL was written.
struct TableDefinition: Equatable {
    var head: [String]
    /// Each column definition or table constraint, in order.
    var parts: [[String]]
    var tail: [String]

    /// Nil when `sql` is not a `CREATE TABLE … ( … )` statement.
    init?(_ sql: String) {
        var tokens = Self.tokens(sql)
        // `IF NOT EXISTS` changes nothing about the table.
        if tokens.count > 5, tokens[0] == "create", tokens[1] == "table", tokens[2...4] == ["if", "not", "exists"] {
            tokens.removeSubrange(2...4)
        }
        guard tokens.count > 3, tokens[0] == "create", tokens[1] == "table", let open = tokens.firstIndex(of: "(") else { return nil }
        head = Array(tokens[..<open])
        var depth = 0
        var parts: [[String]] = [[]]
        var close: Int?
        for i in (open + 1)..<tokens.count {
            let token = tokens[i]
            if token == "(" { depth += 1 }
            if token == ")" {
                if depth == 0 {
                    close = i
                    break
                }
                depth -= 1
            }
            if token == ",", depth == 0 { parts.append([]) } else { parts[parts.count - 1].append(token) }
        }
        guard let close else { return nil }
        self.parts = parts
        tail = Array(tokens[(close + 1)...])
    }

    /// The definition of column `name`, if the table has one.
    func column(_ name: String) -> [String]? {
        parts.first { $0.first == name.lowercased() }
    }

    /// `sql`'s tokens: comments and whitespace dropped, words in lower case, quoted identifiers
    /// unquoted, string literals and numbers as written, any other character on its own.
    static func tokens(_ sql: String) -> [String] {
        let s = Array(sql.unicodeScalars)
        var out: [String] = []
        var i = 0
        func isWord(_ c: Unicode.Scalar) -> Bool { c == "_" || c == "$" || c.properties.isAlphabetic || ("0"..."9").contains(c) }
        while i < s.count {
            let c = s[i]
            if c.properties.isWhitespace {
                i += 1
            } else if c == "-", i + 1 < s.count, s[i + 1] == "-" {
                while i < s.count, s[i] != "\n" { i += 1 }
            } else if c == "/", i + 1 < s.count, s[i + 1] == "*" {
                i += 2
                while i + 1 < s.count, !(s[i] == "*" && s[i + 1] == "/") { i += 1 }
                i += 2
            } else if c == "'" {
                // A string literal, '' inside it kept.
                var j = i + 1
                while j < s.count {
                    if s[j] == "'" {
                        if j + 1 < s.count, s[j + 1] == "'" { j += 2; continue }
                        break
                    }
                    j += 1
                }
                out.append(String(String.UnicodeScalarView(s[i...min(j, s.count - 1)])))
                i = j + 1
            } else if c == "\"" || c == "`" || c == "[" {
                let end: Unicode.Scalar = c == "[" ? "]" : c
                var j = i + 1
                var name = String.UnicodeScalarView()
                while j < s.count {
                    if s[j] == end {
                        if end != "]", j + 1 < s.count, s[j + 1] == end { name.append(end); j += 2; continue }
                        break
                    }
                    name.append(s[j])
                    j += 1
                }
                out.append(String(name).lowercased())
                i = j + 1
            } else if isWord(c) {
                var j = i
                while j < s.count, isWord(s[j]) { j += 1 }
                out.append(String(String.UnicodeScalarView(s[i..<j])).lowercased())
                i = j
            } else {
                out.append(String(c))
                i += 1
            }
        }
        return out
    }
}

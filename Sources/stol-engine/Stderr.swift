import Foundation

/// Human-facing messages of the pipeline commands go to stderr; stdout holds their results.
enum Stderr {
    static func print(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

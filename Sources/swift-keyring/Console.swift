import Foundation

/// Standard output and error, written without buffering surprises between the two.
enum Console {
    static func output(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data(("swift-keyring: " + line + "\n").utf8))
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The checks every word of a command line passes before any parser reads it.
///
/// - A word that is not valid UTF-8 is refused: Swift's `CommandLine.arguments`
///   turns such bytes into U+FFFD, so two different keys would meet in one record.
/// - `--option=` with nothing after the `=` is refused: swift-argument-parser 1.8.2
///   then takes the next word as the option's value (its issue 958), so
///   `get --service="" github` read the default record of service `github`, and
///   `get --file="" github` made a file named `github`. A script with an empty
///   variable writes exactly that.
package enum ArgumentWords {
    /// Why the command line must be refused, for a usage error; `nil` when it may be parsed.
    package static func problem(in arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int32) -> String? {
        for index in 1..<Int(max(count, 1)) {
            guard let word = arguments[index] else { continue }
            guard let text = String(validatingCString: word) else {
                return "argument \(index) is not valid UTF-8 text"
            }
            if text.hasPrefix("--"), text.hasSuffix("="), !text.dropFirst(2).dropLast().contains("=") {
                return "the option \(text.dropLast()) has nothing after its '='; give it a value, or leave it out"
            }
        }
        return nil
    }

    /// `problem(in:count:)` for this process's own command line.
    package static var problem: String? {
        problem(in: CommandLine.unsafeArgv, count: CommandLine.argc)
    }
}

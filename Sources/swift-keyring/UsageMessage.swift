import ArgumentParser
import KeyringCommandLine

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// ArgumentParser's usage errors, said without repeating a word of the command line that may be
/// a secret: `set x hunter2 …` would print "Unexpected argument 'hunter2'" into a CI log, the one
/// place the tool promises a secret never goes.
enum UsageMessage {
    /// Exits with 64 and a message that names no word, when `error` is a usage error whose
    /// message would quote an unexpected argument; returns for every other error.
    static func exitIfItWouldRepeatAnArgument<Command: ParsableCommand>(_ error: any Error, of command: Command.Type) {
        // "Unexpected argument 'x'", or "2 unexpected arguments: 'x', 'y'".
        let message = command.message(for: error)
        guard message.hasPrefix("Unexpected argument") || message.contains(" unexpected arguments") else { return }
        let many = !message.hasPrefix("Unexpected argument ")
        Console.error(
            "\(many ? "Unexpected arguments were" : "An unexpected argument was") given; "
                + "\(many ? "they are" : "it is") not repeated here, as \(many ? "they" : "it") may be a password. "
                + "A password comes from standard input, never from the arguments; see swift-keyring help.")
        Glibc.exit(ExitStatus.usage.rawValue)
    }
}

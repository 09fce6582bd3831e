import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one way a secret's bytes become text, whether they came through a pipe or
/// were typed on a terminal, so both refuse the same input the same way.
package enum SecretText {
    /// `bytes` as strict UTF-8, kept exactly: a leading U+FEFF stays (Foundation's
    /// `String(data:encoding:)` would drop it) and an invalid byte is refused, never
    /// replaced by U+FFFD, so a password comes back byte for byte or not at all.
    /// - Parameter field: what the bytes are, for the error ("password", "new passphrase").
    /// - Throws: `CommandFailure` with exit status 65 when the bytes are not UTF-8.
    package static func decode(_ bytes: some Collection<UInt8>, field: String) throws -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandFailure(message: "The \(field) is not UTF-8 text; nothing was changed.", status: ExitStatus.invalidInput)
        }
        return text
    }

    /// Checks that `bytes` are strict UTF-8, as `decode` does, without making a string of them.
    /// - Throws: `CommandFailure` with exit status 65 when they are not.
    package static func check(_ bytes: some Sequence<UInt8>, field: String) throws {
        guard Keyring.isUTF8(bytes) else {
            throw CommandFailure(message: "The \(field) is not UTF-8 text; nothing was changed.", status: ExitStatus.invalidInput)
        }
    }
}

import Foundation
import SwiftKeyring

/// Sample records shared by the tests.
enum Samples {
    static let url = URL(string: "https://mail.example.com")!

    static func credentials(
        _ username: String = "alice",
        password: String = "correct horse battery staple",
        url: URL = Samples.url,
        sync: Bool = false,
        background: Bool = false
    ) throws -> Credentials {
        try Credentials(username: username, password: password, url: url, syncEnabled: sync, backgroundAccess: background)
    }

    /// Passwords that must round-trip exactly.
    static let hardPasswords: [String] = [
        "",
        "päßwörd ünïcödé",
        "emoji 🔑🦊👩‍👩‍👧‍👦 and flags 🇫🇷",
        "nul\u{0}inside\u{0}",
        "\u{0}",
        "quotes \"'` and \\ backslash\n newline\ttab",
        String(repeating: "x", count: 64 * 1024),
        String(repeating: "ключ🔐", count: 64 * 1024 / 14),
    ]
}

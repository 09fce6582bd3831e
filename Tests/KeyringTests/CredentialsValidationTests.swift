import Foundation
import SwiftKeyring
import Testing

@Suite("Credentials validation")
struct CredentialsValidationTests {
    static let refusedURLs: [(String, String)] = [
        ("ftp://files.example.com", "must use http or https, not ftp"),
        ("file:///etc/passwd", "must use http or https, not file"),
        ("javascript:alert(1)", "must use http or https, not javascript"),
        ("/relative/path", "must be absolute, with an http or https scheme"),
        ("relative", "must be absolute, with an http or https scheme"),
        ("https://", "must name a host"),
        ("http:///path-without-host", "must name a host"),
        ("https://user:secret@example.com/", "must not contain a password; store it as the password"),
        ("https://example.com/#token=abc", "must not contain a fragment (#…)"),
        ("https://example.com/#", "must not contain a fragment (#…)"),
    ]

    @Test("Refused URLs name the field and the reason", arguments: refusedURLs)
    func refusedURL(text: String, reason: String) throws {
        let url = try #require(URL(string: text))
        #expect(throws: KeyringError.invalidRecord(field: "url", reason: reason)) {
            try Credentials(username: "alice", password: "pw", url: url)
        }
    }

    @Test("An empty URL is refused")
    func emptyURL() throws {
        // Foundation will not make an empty URL from a string; a file URL that resolves to nothing is the nearest.
        #expect(URL(string: "") == nil)
        #expect(throws: KeyringError.self) {
            try Credentials(username: "alice", password: "pw", url: URL(fileURLWithPath: ""))
        }
    }

    @Test("Any case of http and https is kept exactly")
    func schemeCase() throws {
        for text in ["HTTPS://Example.com:8443/path", "Http://example.com", "https://example.com"] {
            let credentials = try Credentials(username: "alice", password: "pw", url: URL(string: text)!)
            #expect(credentials.url.absoluteString == text)
        }
    }

    @Test("Empty username, NUL in username, and empty key are refused")
    func names() throws {
        #expect(throws: KeyringError.invalidRecord(field: "username", reason: "must not be empty")) {
            try Credentials(username: "", password: "pw", url: Samples.url)
        }
        #expect(throws: KeyringError.invalidRecord(field: "username", reason: "must not contain a NUL character")) {
            try Credentials(username: "a\u{0}b", password: "pw", url: Samples.url)
        }
        #expect(throws: KeyringError.invalidRecord(field: "service", reason: "must not be empty")) {
            try Keyring(service: "", store: MemoryStore())
        }
    }

    static let controls: [String] = ["\t", "\n", "\r", "\u{1B}[2J", "\u{7F}", "\u{85}", "\u{9B}31m"]

    @Test("A control character in a username or a key is stored, not refused", arguments: controls)
    func controlCharacters(control: String) throws {
        let keyring = try Keyring(service: "com.example.test", store: MemoryStore())
        let username = "alice\(control)root"
        try keyring.set(try Samples.credentials(username), forKey: "work\(control)x")
        try keyring.setSecret(Data("s".utf8), forKey: "work\(control)x")
        #expect(try keyring.credentials(forKey: "work\(control)x")?.username == username)
        #expect(try keyring.list().map(\.key) == ["work\(control)x"])
        #expect(try keyring.secretKeys() == ["work\(control)x"])
    }

    @Test("Printable text beyond ASCII is still a valid username and key")
    func printableNames() throws {
        let keyring = try Keyring(service: "com.example.test", store: MemoryStore())
        try keyring.set(Samples.credentials("zoë 🔑 ключ"), forKey: "work ümlaut")
        #expect(try keyring.credentials(forKey: "work ümlaut")?.username == "zoë 🔑 ключ")
    }

    @Test(
        "A record stored before (or by another program) with a fragment is read back as it is, and removed"
    )
    func foreignControlCharacters() throws {
        let store = MemoryStore()
        let keyring = try Keyring(service: "com.example.test", store: store)
        let username = "alice\thttps://x\t-\nroot"
        let id = RecordID(service: "com.example.test", key: "k\u{1B}[31m", kind: .credentials)
        let metadata = RecordMetadata(username: username, url: "https://example.com/#old")
        try store.save(StoredRecord(id: id, metadata: metadata, secret: Array("pw".utf8)))

        #expect(try keyring.list().map(\.username) == [username])
        let read = try keyring.credentials(forKey: id.key)
        #expect(read?.username == username)
        #expect(read?.url.absoluteString == "https://example.com/#old")
        #expect(try keyring.remove(forKey: id.key))
    }

    @Test("A password over 1 MiB is refused, not truncated")
    func hugePassword() throws {
        let huge = String(repeating: "x", count: (1 << 20) + 1)
        #expect(throws: KeyringError.invalidRecord(field: "password", reason: "is longer than 1 MiB")) {
            try Credentials(username: "alice", password: huge, url: Samples.url)
        }
    }

    @Test("description and dump never show the password")
    func descriptionHidesPassword() throws {
        let secret = "hunter2-very-secret"
        let credentials = try Samples.credentials(password: secret)
        var dumped = ""
        dump(credentials, to: &dumped)
        #expect(dumped.contains("<\(secret.utf8.count) bytes hidden>"))
        for text in [
            credentials.description, credentials.debugDescription, "\(credentials)", String(reflecting: credentials), dumped,
        ] {
            #expect(!text.contains(secret))
            #expect(text.contains("alice"))
        }
        let record = StoredRecord(
            id: RecordID(service: "s", key: "k", kind: .credentials),
            metadata: RecordMetadata(username: "alice"), secret: Array(secret.utf8))
        #expect(!record.description.contains(secret))
    }

    @Test("Error descriptions are one readable sentence naming the field")
    func errorDescriptions() {
        #expect(
            KeyringError.invalidRecord(field: "url", reason: "must name a host").description == "Invalid url: must name a host.")
        #expect(
            KeyringError.timedOut(operation: "lookup", seconds: 5).description == "The keyring did not answer lookup within 5 s.")
    }
}

import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// libsecret's file, changed by someone else: every change is refused (or, in the two
/// header fields the format leaves unauthenticated and unused, changes nothing read),
/// never a crash, a hang or another answer; and the file is never written over.
@Suite("libsecret file: integrity")
struct LibsecretFileDamageTests {
    /// The file offsets of the modification time and usage count: outside every MAC, and
    /// read by nobody (see docs/LIBSECRET_FILE_FORMAT.md).
    private static let unauthenticated = 58..<70

    private struct Small {
        let url: URL
        let password: String
        let bytes: Data
        let contents: Contents
    }

    /// What a reader sees: every record of the service with its secret, and the foreign item's secret.
    private struct Contents: Equatable {
        var summaries: [RecordSummary]
        var secrets: [[UInt8]?]
    }

    private static let service = "com.example.mail"

    private func contents(_ store: LibsecretFileStore) throws -> Contents {
        let summaries = try store.summaries(service: Self.service, kind: nil)
        return Contents(summaries: summaries, secrets: try summaries.map { try store.secret(for: $0.id) })
    }

    /// A small file at the lowest PBKDF2 cost: two records of ours and one of secret-tool's.
    private func smallKeyring() throws -> Small {
        let url = try LibsecretFileFixture.newFileURL()
        let password = LibsecretFileFixture.randomPassword()
        let store = try LibsecretFileFixture.cheapStore(url: url, password: password)
        let keyring = try Keyring(service: Self.service, store: store)
        try keyring.setDefault(try Samples.credentials("alice", password: "pw-1"))
        try keyring.setSecret(Data("token".utf8), forKey: "token")
        let tool = try LibsecretFileFixture.secretTool(
            ["store", "--label=foreign", "app", "x"], url: url, password: password, stdin: "f")
        #expect(tool.status == 0, "\(tool.stderr)")
        return Small(url: url, password: password, bytes: try Data(contentsOf: url), contents: try contents(store))
    }

    /// Opens `url` afresh and says how it went, in words for a failure message.
    private func openOutcome(_ small: Small) -> String {
        let result = BoundedCall.run(within: .seconds(60)) { [small] in
            let store = try LibsecretFileStore(
                url: small.url, key: .secret(.passphrase(small.password)), createIfMissing: false)
            return try contents(store)
        }
        switch result {
        case nil: return "hang"
        case .success(let contents): return contents == small.contents ? "opened" : "opened with other contents"
        case .failure(KeyringError.Code.damaged): return "damaged"
        case .failure(KeyringError.Code.wrongPassphrase): return "wrongPassphrase"
        case .failure(let error): return "other error: \(error)"
        }
    }

    /// Writes `bytes` as a new version of the file, as another program would (new file, rename).
    private func replace(_ url: URL, with bytes: Data) throws {
        let next = url.appendingPathExtension("next")
        try FileStoreFixture.writePrivate(bytes, to: next)
        #expect(rename(next.path, url.path) == 0)
    }

    @Test("The file holds none of the values, the label, the password or the secret")
    func noPlaintext() throws {
        let store = try LibsecretFileFixture.store()
        let keyring = try Keyring(service: "plaintext.service.c0de", store: store)
        let credentials = try Samples.credentials(
            "plaintext-user-7f3a", password: "plaintext-password-91c2",
            url: URL(string: "https://plaintext-host-a9.example.com/path")!)
        try keyring.set(credentials, forKey: "plaintext-key-55d1")
        let bytes = try Data(contentsOf: store.url)
        // Attribute names are in plain text in this format (docs/LIBSECRET_FILE_FORMAT.md); values are not.
        for word in ["plaintext", "c0de", "7f3a", "91c2", "55d1", "example.com", "https", "swift-keyring —"] {
            #expect(bytes.range(of: Data(word.utf8)) == nil, "the file contains \"\(word)\"")
        }
        #expect(bytes.range(of: Data("username".utf8)) != nil)
        #expect(try keyring.credentials(forKey: "plaintext-key-55d1") == credentials)
    }

    @Test("Every single-byte change is refused, or changes only what nobody reads; the file is left as it was")
    func everyByteChange() throws {
        let small = try smallKeyring()
        var failures: [String] = []
        for offset in 0..<small.bytes.count {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var changed = small.bytes
                changed[offset] ^= mask
                try replace(small.url, with: changed)
                let outcome = openOutcome(small)
                let allowed = Self.unauthenticated.contains(offset) ? ["opened"] : ["damaged", "wrongPassphrase"]
                if !allowed.contains(outcome) { failures.append("byte \(offset) ^ \(mask): \(outcome)") }
                if try Data(contentsOf: small.url) != changed {
                    failures.append("byte \(offset) ^ \(mask): the file was rewritten")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) changes were not refused: \(failures.prefix(10))")
        try replace(small.url, with: small.bytes)
        #expect(openOutcome(small) == "opened")
    }

    @Test("Every truncation, and any added byte, is refused as damage")
    func truncationAndExtension() throws {
        let small = try smallKeyring()
        var failures: [String] = []
        for length in 0..<small.bytes.count {
            try replace(small.url, with: small.bytes.prefix(length))
            let outcome = openOutcome(small)
            if outcome != "damaged" { failures.append("\(length) bytes: \(outcome)") }
        }
        for extra in [Data([0]), Data([0x42]), small.bytes.suffix(32), Data(count: 70_000)] {
            try replace(small.url, with: small.bytes + extra)
            let outcome = openOutcome(small)
            if outcome != "damaged" { failures.append("\(extra.count) more bytes: \(outcome)") }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("Random changes of many bytes at once are refused, never a crash, a hang or another answer")
    func randomChanges() throws {
        let small = try smallKeyring()
        var generator = SystemRandomNumberGenerator()
        var failures: [String] = []
        for round in 0..<300 {
            var changed = small.bytes
            for _ in 0..<Int.random(in: 2...16, using: &generator) {
                let offset = Int.random(in: 0..<changed.count, using: &generator)
                changed[offset] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) { changed = changed.prefix(Int.random(in: 0..<changed.count)) }
            try replace(small.url, with: changed)
            let outcome = openOutcome(small)
            let onlyUnread =
                zip(changed, small.bytes).enumerated().allSatisfy { $1.0 == $1.1 || Self.unauthenticated.contains($0) }
                && changed.count == small.bytes.count
            if outcome != "damaged" && outcome != "wrongPassphrase" && !(onlyUnread && outcome == "opened") {
                failures.append("round \(round): \(outcome)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(10))")
    }

    @Test("A store whose file is damaged by someone else refuses to read or write, naming the file, and leaves it")
    func damagedWhileOpen() throws {
        let small = try smallKeyring()
        let store = try LibsecretFileStore(url: small.url, key: .secret(.passphrase(small.password)))
        let keyring = try Keyring(service: Self.service, store: store)
        var changed = small.bytes
        changed[small.bytes.count - 40] ^= 0x10
        try replace(small.url, with: changed)
        #expect(throws: KeyringError.self) { try keyring.defaultCredentials() }
        do {
            try keyring.set(try Samples.credentials("mallory"), forKey: "new")
            Issue.record("a write over a damaged file succeeded")
        } catch let error as KeyringError {
            #expect(error.code == .damaged, "\(error)")
            #expect(error.place == .libsecretFile)
            #expect(error.description.hasPrefix("The libsecret keyring file is damaged: \(small.url.path): "), "\(error)")
        }
        #expect(try Data(contentsOf: small.url) == changed)
    }

    @Test("gnome-keyring's own keyring format (version 0) is refused, named, and never written over")
    func gnomeKeyringFormat() throws {
        let small = try smallKeyring()
        var changed = small.bytes
        changed[16] = 0
        try replace(small.url, with: changed)
        #expect(
            throws: KeyringError.damaged(
                reason: "\(small.url.path): it is a keyring of gnome-keyring's own format (version 0), not libsecret's file")
        ) {
            try Keyring(service: "s", store: LibsecretFileStore(url: small.url, key: .secret(.passphrase(small.password))))
                .setSecret(Data("x".utf8), forKey: "k")
        }
        #expect(try Data(contentsOf: small.url) == changed)
    }
}

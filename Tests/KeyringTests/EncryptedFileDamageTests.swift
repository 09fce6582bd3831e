import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// What is on disk, and what happens when it changes: nothing readable, and
/// every change is refused without being overwritten.
@Suite("Encrypted file: confidentiality and integrity")
struct EncryptedFileDamageTests {
    /// Opens `url` afresh and says how it went, in words for a failure message.
    private func openOutcome(_ url: URL, key: Data) -> String {
        do {
            _ = try EncryptedFileStore(url: url, secret: .key(key), createIfMissing: false)
            return "opened"
        } catch KeyringError.Code.damaged {
            return "damaged"
        } catch KeyringError.Code.wrongPassphrase {
            return "wrongPassphrase"
        } catch {
            return "other error: \(error)"
        }
    }

    /// A small keyring file with two records, its bytes, and its key.
    private func smallKeyring() throws -> (url: URL, key: Data, bytes: Data) {
        let key = FileStoreFixture.randomKey()
        let store = try FileStoreFixture.store(key: key)
        let keyring = try Keyring(service: "com.example.mail", store: store)
        try keyring.setDefault(try Samples.credentials("alice", password: "pw-1"))
        try keyring.setSecret(Data("token".utf8), forKey: "token")
        return (store.url, key, try Data(contentsOf: store.url))
    }

    /// Writes `bytes` as a new version of the file, as another program would (new file, rename).
    private func replace(_ url: URL, with bytes: Data) throws {
        let next = url.appendingPathExtension("next")
        try FileStoreFixture.writePrivate(bytes, to: next)
        #expect(rename(next.path, url.path) == 0)
    }

    @Test("The file holds none of the names, the username, the password, the secret or the URL")
    func noPlaintext() throws {
        let store = try FileStoreFixture.store()
        let keyring = try Keyring(service: "plaintext.service.c0de", store: store)
        let credentials = try Samples.credentials(
            "plaintext-user-7f3a", password: "plaintext-password-91c2",
            url: URL(string: "https://plaintext-host-a9.example.com/path")!
        )
        try keyring.set(credentials, forKey: "plaintext-key-55d1")
        try keyring.setSecret(Data("plaintext-token-e4b8".utf8), forKey: "plaintext-secret-key-2d")
        let bytes = try Data(contentsOf: store.url)
        for word in ["plaintext", "c0de", "7f3a", "91c2", "55d1", "e4b8", "example.com", "https", "mail"] {
            #expect(bytes.range(of: Data(word.utf8)) == nil, "the file contains \"\(word)\"")
        }
        #expect(try keyring.credentials(forKey: "plaintext-key-55d1") == credentials)
    }

    @Test("Every single-byte change is refused as damage, and the file is left as it was")
    func everyByteChange() throws {
        let (url, key, original) = try smallKeyring()
        var failures: [String] = []
        for offset in 0..<original.count {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var changed = original
                changed[offset] ^= mask
                try replace(url, with: changed)
                let outcome = openOutcome(url, key: key)
                // Only a changed key check may read as a wrong key; the header checksum reports even that as damage.
                if outcome != "damaged" && outcome != "wrongPassphrase" {
                    failures.append("byte \(offset) ^ \(mask): \(outcome)")
                }
                if try Data(contentsOf: url) != changed {
                    failures.append("byte \(offset) ^ \(mask): the file was rewritten")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) changes were not refused: \(failures.prefix(10))")
        try replace(url, with: original)
        #expect(openOutcome(url, key: key) == "opened")
    }

    @Test("Every truncation, and any added byte, is refused as damage")
    func truncationAndExtension() throws {
        let (url, key, original) = try smallKeyring()
        var failures: [String] = []
        for length in 0..<original.count {
            try replace(url, with: original.prefix(length))
            let outcome = openOutcome(url, key: key)
            if outcome != "damaged" { failures.append("\(length) bytes: \(outcome)") }
        }
        for extra in [Data([0]), Data([0x42]), original.suffix(32)] {
            try replace(url, with: original + extra)
            let outcome = openOutcome(url, key: key)
            if outcome != "damaged" { failures.append("\(extra.count) more bytes: \(outcome)") }
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("Reordered, removed and duplicated records are refused as damage")
    func recordLevelChanges() throws {
        let (url, key, original) = try smallKeyring()
        // The layout of docs/FILE_FORMAT.md: 96-byte header, record count, records, 32-byte MAC.
        let bytes = [UInt8](original)
        func length(at offset: Int) -> Int { bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        var records: [[UInt8]] = []
        var offset = 100
        while offset < bytes.count - 32 {
            let entryEnd = offset + 4 + length(at: offset)
            let end = entryEnd + 4 + length(at: entryEnd)
            records.append(Array(bytes[offset..<end]))
            offset = end
        }
        #expect(records.count == 2 && length(at: 96) == 2)
        let head = Array(bytes[0..<96])
        let mac = Array(bytes[(bytes.count - 32)...])
        func file(_ count: UInt8, _ body: [[UInt8]]) -> Data { Data(head + [0, 0, 0, count] + body.flatMap { $0 } + mac) }
        let variants = [
            "swapped": file(2, [records[1], records[0]]),
            "first removed": file(1, [records[1]]),
            "second removed": file(1, [records[0]]),
            "first duplicated": file(3, [records[0], records[0], records[1]]),
            "second repeated, count unchanged": file(2, [records[1], records[1]]),
        ]
        for (name, variant) in variants {
            try replace(url, with: variant)
            #expect(openOutcome(url, key: key) == "damaged", "\(name)")
        }
    }

    @Test("A store whose file is damaged by someone else refuses to read or write, and leaves the damage for a person to see")
    func damagedWhileOpen() throws {
        let (url, key, original) = try smallKeyring()
        let keyring = try Keyring(service: "com.example.mail", store: EncryptedFileStore(url: url, secret: .key(key)))
        var changed = original
        changed[original.count - 40] ^= 0x10
        try replace(url, with: changed)
        #expect(throws: KeyringError.self) { try keyring.defaultCredentials() }
        do {
            try keyring.set(try Samples.credentials("mallory"), forKey: "new")
            Issue.record("a write over a damaged file succeeded")
        } catch let error as KeyringError {
            guard error.code == .damaged else {
                Issue.record("expected .damaged, got \(error)")
                return
            }
            // The message names the store that is damaged.
            #expect(error.place == .keyringFile)
            #expect(error.description.hasPrefix("The keyring file is damaged: "), "\(error)")
        }
        #expect(try Data(contentsOf: url) == changed)
    }

    @Test("A file of an unknown format version is refused as damage, naming the version")
    func unknownVersion() throws {
        let (url, key, original) = try smallKeyring()
        var changed = original
        changed[9] = 2
        try replace(url, with: changed)
        #expect(throws: KeyringError.damaged(reason: "it has format version 2, and this build reads version 1 only")) {
            try EncryptedFileStore(url: url, secret: .key(key))
        }
        #expect(try Data(contentsOf: url) == changed)
    }
}

import Dispatch
import SwiftKeyring
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bodies of the conformance checks, one function per `CredentialStoreConformance.Check`.
///
/// Each states what it expected in words a store author can act on, and describes passwords
/// and secrets by their length, never their text. The samples are `package`, so this
/// package's own tests use the same records the checks do.
package enum ConformanceChecks {
    package static let url = URL(string: "https://mail.example.com")!

    package static func credentials(
        _ username: String = "alice",
        password: String = "correct horse battery staple",
        url: URL = ConformanceChecks.url,
        sync: Bool = false,
        background: Bool = false
    ) throws -> Credentials {
        try Credentials(username: username, password: password, url: url, syncEnabled: sync, backgroundAccess: background)
    }

    /// Passwords that must come back exactly: empty, non-ASCII, NUL inside, 64 KiB, and a
    /// leading U+FEFF (which KWallet and KeePassXC drop from a secret sent as text).
    package static let hardPasswords: [String] = [
        "",
        "päßwörd ünïcödé",
        "emoji 🔑🦊👩‍👩‍👧‍👦 and flags 🇫🇷",
        "nul\u{0}inside\u{0}",
        "\u{0}",
        "quotes \"'` and \\ backslash\n newline\ttab",
        String(repeating: "x", count: 64 * 1024),
        String(repeating: "ключ🔐", count: 64 * 1024 / 14),
        "\u{FEFF}leading byte order mark",
    ]

    static func describe(_ credentials: Credentials?) -> String {
        guard let credentials else { return "no record" }
        return "username \(String(reflecting: credentials.username)), password of \(credentials.password.utf8.count) bytes, "
            + "url \(credentials.url.absoluteString), sync \(credentials.syncEnabled), "
            + "background access \(credentials.backgroundAccess)"
    }

    static func fieldsRoundTrip(_ findings: inout Findings, _ fixture: Fixture) throws {
        let keyring = try fixture.keyring()
        let url = URL(string: "HTTPS://Example.com:8443/path?q=1&r=%20")!
        let stored = try credentials("bøb 🦊", url: url, sync: true, background: true)
        try keyring.set(stored, forKey: "work ключ 🔑")
        let read = try keyring.credentials(forKey: "work ключ 🔑")
        findings.expect(read == stored, "the credentials saved: \(describe(stored))", found: describe(read))
        findings.expect(
            read?.url.absoluteString == url.absoluteString, "the URL as written, \(url.absoluteString)",
            found: read?.url.absoluteString ?? "no record")
    }

    static func passwordsRoundTrip(_ findings: inout Findings, _ fixture: Fixture) throws {
        let keyring = try fixture.keyring()
        for (index, password) in hardPasswords.enumerated() {
            try keyring.set(try credentials(password: password), forKey: "k\(index)")
        }
        for (index, password) in hardPasswords.enumerated() {
            let read = try keyring.credentials(forKey: "k\(index)")
            findings.expect(
                read?.password == password, "password \(index) (\(password.utf8.count) bytes) back unchanged from record(for:)",
                found: read.map { "\($0.password.utf8.count) other bytes" } ?? "no record")
            let alone = try keyring.password(forKey: "k\(index)")
            findings.expect(
                alone == password, "password \(index) (\(password.utf8.count) bytes) back unchanged from secret(for:)",
                found: alone.map { "\($0.utf8.count) other bytes" } ?? "no secret")
        }
        let missing = try keyring.password(forKey: "missing")
        findings.expect(missing == nil, "no password for a key never saved", found: "a password")
    }

    static func saveReplaces(_ findings: inout Findings, _ fixture: Fixture) throws {
        let keyring = try fixture.keyring()
        try keyring.set(try credentials("alice", password: "one"), forKey: "work")
        let second = try credentials("bob", password: "two", sync: true)
        try keyring.set(second, forKey: "work")
        let read = try keyring.credentials(forKey: "work")
        findings.expect(read == second, "the second save's record: \(describe(second))", found: describe(read))
        let keys = try keyring.list().map(\.key)
        findings.expect(keys == ["work"], "one record listed after two saves under one key", found: "\(keys)")
    }

    static func missingRecords(_ findings: inout Findings, _ fixture: Fixture) throws {
        let keyring = try fixture.keyring()
        let read = try keyring.credentials(forKey: "nothing")
        findings.expect(read == nil, "no record for a key never saved", found: describe(read))
        let readDefault = try keyring.defaultCredentials()
        findings.expect(readDefault == nil, "no default record in a new service", found: describe(readDefault))
        let removed = try keyring.remove(forKey: "nothing")
        findings.expect(!removed, "removing a key never saved to return false", found: "true")
        let secret = try keyring.secret(forKey: "nothing")
        findings.expect(secret == nil, "no secret for a key never saved", found: "\(secret?.count ?? 0) bytes")
    }

    static func removeTakesOne(_ findings: inout Findings, _ fixture: Fixture) throws {
        let keyring = try fixture.keyring()
        try keyring.set(try credentials("a"), forKey: "one")
        try keyring.set(try credentials("b"), forKey: "two")
        let removed = try keyring.remove(forKey: "one")
        findings.expect(removed, "removing a saved key to return true", found: "false")
        let one = try keyring.credentials(forKey: "one")
        findings.expect(one == nil, "no record under the removed key", found: describe(one))
        let two = try keyring.credentials(forKey: "two")
        findings.expect(two?.username == "b", "the other key's record kept", found: describe(two))
    }

    static func defaultIsSeparate(_ findings: inout Findings, _ fixture: Fixture) throws {
        let keyring = try fixture.keyring()
        try keyring.setDefault(try credentials("main"))
        try keyring.set(try credentials("other"), forKey: "other")
        let main = try keyring.defaultCredentials()
        findings.expect(main?.username == "main", "the default record, username \"main\"", found: describe(main))
        let other = try keyring.credentials(forKey: "other")
        findings.expect(other?.username == "other", "the keyed record, username \"other\"", found: describe(other))
        let removed = try keyring.removeDefault()
        findings.expect(removed, "removing the default to return true", found: "false")
        let gone = try keyring.defaultCredentials()
        findings.expect(gone == nil, "no default record after removing it", found: describe(gone))
        let kept = try keyring.credentials(forKey: "other")
        findings.expect(kept?.username == "other", "the keyed record kept when the default is removed", found: describe(kept))
    }

    static func listAndFilters(_ findings: inout Findings, _ fixture: Fixture) throws {
        let keyring = try fixture.keyring()
        try keyring.setDefault(try credentials("d"))
        try keyring.set(try credentials("s", sync: true), forKey: "synced")
        try keyring.set(try credentials("b", background: true), forKey: "background")
        try keyring.setSecret(Data("token".utf8), forKey: "token")
        let all = try keyring.list()
        let expectedKeys = [Keyring.defaultKey, "background", "synced"]
        findings.expect(all.map(\.key) == expectedKeys, "credentials listed as \(expectedKeys)", found: "\(all.map(\.key))")
        findings.expect(
            all.map(\.username) == ["d", "b", "s"], "usernames [\"d\", \"b\", \"s\"]", found: "\(all.map(\.username))")
        findings.expect(
            all.allSatisfy { $0.url == url }, "every URL \(url.absoluteString)", found: "\(all.map(\.url.absoluteString))")
        let synced = try keyring.list(syncEnabled: true).map(\.key)
        findings.expect(synced == ["synced"], "[\"synced\"] for syncEnabled: true", found: "\(synced)")
        let background = try keyring.list(backgroundAccess: true).map(\.key)
        findings.expect(background == ["background"], "[\"background\"] for backgroundAccess: true", found: "\(background)")
        let neither = try keyring.list(syncEnabled: false, backgroundAccess: false).map(\.key)
        findings.expect(neither == [Keyring.defaultKey], "only the default for both flags false", found: "\(neither)")
        let secretKeys = try keyring.secretKeys()
        findings.expect(secretKeys == ["token"], "one secret key, [\"token\"]", found: "\(secretKeys)")
    }

    static func kindsAreSeparate(_ findings: inout Findings, _ fixture: Fixture) throws {
        let keyring = try fixture.keyring()
        var bytes = Data((0...255).map(UInt8.init))
        bytes.append(contentsOf: [0xFF, 0xFE, 0x00, 0xC3])  // not UTF-8
        // The secret first, so a store that reads the first record under a key, whatever its kind, is caught.
        try keyring.setSecret(bytes, forKey: "shared")
        let stored = try credentials("shared", password: "the credentials' own")
        try keyring.set(stored, forKey: "shared")
        let password = try keyring.password(forKey: "shared")
        findings.expect(
            password == stored.password, "the credentials' password (\(stored.password.utf8.count) bytes) from secret(for:)",
            found: password.map { "\($0.utf8.count) other bytes" } ?? "no password")
        let secret = try keyring.secret(forKey: "shared")
        findings.expect(
            secret == bytes, "the secret's \(bytes.count) bytes back unchanged",
            found: secret.map { "\($0.count) other bytes" } ?? "no secret")
        let read = try keyring.credentials(forKey: "shared")
        findings.expect(read?.username == "shared", "the credentials under the same key kept", found: describe(read))
        let removed = try keyring.removeSecret(forKey: "shared")
        findings.expect(removed, "removing the secret to return true", found: "false")
        let after = try keyring.credentials(forKey: "shared")
        findings.expect(after != nil, "the credentials kept when the secret under their key is removed", found: "no record")
    }

    static func removeAllKeepsOtherServices(_ findings: inout Findings, _ fixture: Fixture) throws {
        let mine = try fixture.keyring()
        let other = try fixture.keyring()
        try mine.setDefault(try credentials("me"))
        try mine.set(try credentials("me2"), forKey: "k")
        try mine.setSecret(Data("s".utf8), forKey: "s")
        try other.set(try credentials("them"), forKey: "k")
        try other.setSecret(Data("theirs".utf8), forKey: "s")
        let removed = try mine.removeAll()
        findings.expect(removed == 3, "removeAll to count the service's 3 records", found: "\(removed)")
        let left = try mine.list().map(\.key)
        findings.expect(left.isEmpty, "no credentials left in the service", found: "\(left)")
        let leftSecrets = try mine.secretKeys()
        findings.expect(leftSecrets.isEmpty, "no secrets left in the service", found: "\(leftSecrets)")
        let theirs = try other.credentials(forKey: "k")
        findings.expect(theirs?.username == "them", "another service's credentials kept", found: describe(theirs))
        let theirSecret = try other.secret(forKey: "s")
        findings.expect(
            theirSecret == Data("theirs".utf8), "another service's secret kept", found: "\(theirSecret?.count ?? 0) bytes")
    }

    static func exactNames(_ findings: inout Findings, _ fixture: Fixture) throws {
        let keyring = try fixture.keyring()
        let names = fixture.names
        for (index, name) in names.enumerated() {
            try keyring.set(try credentials(name, password: "p\(index)"), forKey: name)
            try keyring.setSecret(Data("s\(index)".utf8), forKey: name)
        }
        for (index, name) in names.enumerated() {
            let read = try keyring.credentials(forKey: name)
            findings.expect(
                read.map { Array($0.username.utf8) } == Array(name.utf8), "name \(index) \(String(reflecting: name)) as username",
                found: read.map { String(reflecting: $0.username) } ?? "no record")
            findings.expect(read?.password == "p\(index)", "name \(index)'s own record", found: "another record's password")
            let secret = try keyring.secret(forKey: name)
            findings.expect(secret == Data("s\(index)".utf8), "name \(index)'s own secret", found: "another secret")
        }
        // As bytes: Swift's == takes "e\u{301}" and "\u{E9}" for one string, a store must not.
        let expected = Set(names.map { Array($0.utf8) })
        let listed = try keyring.list()
        findings.expect(
            Set(listed.map { Array($0.key.utf8) }) == expected, "every name listed as a key, byte for byte",
            found: "\(listed.map { String(reflecting: $0.key) })")
        findings.expect(
            Set(listed.map { Array($0.username.utf8) }) == expected, "every name listed as a username, byte for byte",
            found: "\(listed.map { String(reflecting: $0.username) })")
        let secretKeys = try keyring.secretKeys()
        findings.expect(
            Set(secretKeys.map { Array($0.utf8) }) == expected, "every name listed as a secret key, byte for byte",
            found: "\(secretKeys.map { String(reflecting: $0) })")
        for name in names {
            let removed = try keyring.remove(forKey: name)
            findings.expect(removed, "removing \(String(reflecting: name)) to return true", found: "false")
        }
        let left = try keyring.list().map(\.key)
        findings.expect(left.isEmpty, "no credentials left after removing every name", found: "\(left)")
    }

    static func concurrentCalls(_ findings: inout Findings, _ fixture: Fixture) throws {
        let keyring = try fixture.keyring()
        let threads = 16
        let perThread = 10
        let errors = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            do {
                for index in 0..<perThread {
                    let key = "t\(thread)-\(index)"
                    try keyring.set(try credentials("u\(thread)", password: "p\(thread)-\(index)"), forKey: key)
                    _ = try keyring.credentials(forKey: key)
                    _ = try keyring.list()
                    if index % 3 == 0 { try keyring.setSecret(Data(key.utf8), forKey: key) }
                }
            } catch {
                errors.withLock { $0.append("thread \(thread): \(error)") }
            }
        }
        for error in errors.withLock({ $0 }) {
            findings.expect(false, "no call to fail while \(threads) threads call at once", found: error)
        }
        let keys = Set(try keyring.list().map(\.key))
        for thread in 0..<threads {
            for index in 0..<perThread {
                let key = "t\(thread)-\(index)"
                findings.expect(keys.contains(key), "\(key) listed", found: "it missing")
                let read = try keyring.credentials(forKey: key)
                findings.expect(read?.password == "p\(thread)-\(index)", "\(key)'s own password", found: describe(read))
            }
        }
        let secrets = try keyring.secretKeys().count
        let expectedSecrets = threads * ((perThread + 2) / 3)
        findings.expect(secrets == expectedSecrets, "\(expectedSecrets) secret keys", found: "\(secrets)")
    }
}

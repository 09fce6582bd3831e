import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// libsecret's own file backend (`secret-tool` with `SECRET_BACKEND=file`, keyed by
/// `SECRET_FILE_TEST_PASSWORD`, no portal, no bus) and our store on one file, both ways.
@Suite("libsecret file: interop with secret-tool")
struct LibsecretFileInteropTests {
    private let url: URL
    private let password = LibsecretFileFixture.randomPassword()

    init() throws {
        url = try LibsecretFileFixture.newFileURL()
    }

    private func secretTool(_ arguments: [String], stdin: String? = nil) throws -> CommandResult {
        let result = try LibsecretFileFixture.secretTool(arguments, url: url, password: password, stdin: stdin)
        #expect(result.status == 0, "secret-tool \(arguments.first ?? "") failed: \(result.stderr)")
        return result
    }

    /// The attributes our store gives a record, as secret-tool's command line spells them.
    private func attributes(_ id: RecordID, username: String, url: String, background: Bool) -> [String] {
        [
            "tag", "swift-keyring", "service", id.service, "key", id.key, "kind", id.kind.rawValue,
            "username", username, "url", url, "sync", "false", "background-access", background ? "true" : "false",
        ]
    }

    @Test("What secret-tool stores with our attributes we read, with its attributes and label")
    func weReadSecretTool() throws {
        let id = RecordID(service: "com.example.mail", key: "work", kind: .credentials)
        _ = try secretTool(
            ["store", "--label=Work mail"]
                + attributes(id, username: "alice", url: "https://mail.example.com", background: true),
            stdin: "pässword from secret-tool")
        let store = try LibsecretFileFixture.store(url: url, password: password)
        let keyring = try Keyring(service: "com.example.mail", store: store)
        let credentials = try #require(try keyring.credentials(forKey: "work"))
        #expect(credentials.username == "alice")
        #expect(credentials.password == "pässword from secret-tool")
        #expect(credentials.url == URL(string: "https://mail.example.com"))
        #expect(credentials.backgroundAccess && !credentials.syncEnabled)
        #expect(try keyring.list().map(\.key) == ["work"])
        let items = try store.items()
        #expect(items.count == 1)
        #expect(items.first?.label == "Work mail")
        #expect(items.first?.attributes["username"] == "alice")
        #expect(items.first?.attributes["tag"] == "swift-keyring")
    }

    @Test("What we store secret-tool reads, with our attributes and label")
    func secretToolReadsUs() throws {
        let keyring = try Keyring(service: "com.example.chat", store: LibsecretFileFixture.store(url: url, password: password))
        try keyring.set(
            try Credentials(username: "bob", password: "our password ✓", url: URL(string: "https://chat.example.com/login")!),
            forKey: "github")
        try keyring.setSecret(Data("token-value".utf8), forKey: "token")
        let lookup = try secretTool(["lookup", "service", "com.example.chat", "key", "github", "kind", "credentials"])
        #expect(lookup.text == "our password ✓")
        let token = try secretTool(["lookup", "service", "com.example.chat", "key", "token", "kind", "secret"])
        #expect(token.text == "token-value")
        let search = try secretTool(["search", "--all", "key", "github"])
        let shown = search.text + search.stderr
        #expect(shown.contains("label = github — bob @ chat.example.com"))
        for line in [
            "attribute.tag = swift-keyring", "attribute.username = bob", "attribute.url = https://chat.example.com/login",
            "attribute.sync = false", "attribute.background-access = false", "schema = org.swift-keyring.Record",
        ] {
            #expect(shown.contains(line), "secret-tool search does not show \(line)")
        }
    }

    @Test("A file both wrote keeps everyone's items: foreign items survive our rewrites, ours survive secret-tool's")
    func bothWriters() throws {
        _ = try secretTool(["store", "--label=Foreign", "app", "other", "account", "x"], stdin: "foreign secret")
        let store = try LibsecretFileFixture.store(url: url, password: password)
        let keyring = try Keyring(service: "com.example.both", store: store)
        try keyring.setSecret(Data("one".utf8), forKey: "first")
        _ = try secretTool(["store", "--label=Foreign 2", "app", "other", "account", "y"], stdin: "foreign secret 2")
        try keyring.setSecret(Data("two".utf8), forKey: "second")
        try keyring.setSecret(Data("one again".utf8), forKey: "first")
        #expect(try keyring.removeAll() == 2)
        try keyring.setSecret(Data("three".utf8), forKey: "third")
        // removeAll took only ours; the foreign items were rewritten three times and are whole.
        #expect(try secretTool(["lookup", "app", "other", "account", "x"]).text == "foreign secret")
        #expect(try secretTool(["lookup", "app", "other", "account", "y"]).text == "foreign secret 2")
        #expect(try secretTool(["lookup", "service", "com.example.both", "key", "third"]).text == "three")
        #expect(try store.items().map(\.label).sorted() == ["Foreign", "Foreign 2", "com.example.both third"])
        #expect(try keyring.secretKeys() == ["third"])
        // secret-tool's clear of our item is seen.
        _ = try secretTool(["clear", "service", "com.example.both", "key", "third"])
        #expect(try keyring.secret(forKey: "third") == nil)
        #expect(try store.items().count == 2)
    }

    @Test("secret-tool's replacement of our item is what we read next")
    func secretToolReplacesOurs() throws {
        let id = RecordID(service: "com.example.replace", key: "k", kind: .credentials)
        let keyring = try Keyring(service: id.service, store: LibsecretFileFixture.store(url: url, password: password))
        try keyring.set(
            try Credentials(username: "carol", password: "first", url: URL(string: "https://example.com")!), forKey: "k")
        _ = try secretTool(["clear", "service", id.service, "key", "k"])
        _ = try secretTool(
            ["store", "--label=replaced"] + attributes(id, username: "carol", url: "https://example.com", background: false),
            stdin: "second")
        #expect(try keyring.credentials(forKey: "k")?.password == "second")
    }

    @Test("A file secret-tool wrote with another password is a wrong password, and is left as it was")
    func wrongPassword() throws {
        _ = try secretTool(["store", "--label=x", "a", "b"], stdin: "s")
        let before = try Data(contentsOf: url)
        #expect(throws: KeyringError.wrongPassphrase) {
            _ = try LibsecretFileFixture.store(url: url, password: "not-" + password)
        }
        #expect(try Data(contentsOf: url) == before)
    }
}

import Foundation
import KeyringSession
import KeyringTestSupport
import Testing

@Suite("Session state file")
struct SessionStateFileTests {
    @Test("Secure values are in the keyring and absent from the state file's bytes", arguments: TestStore.allCases)
    func secureValuesStayInKeyring(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        let token = "tok-\(UUID().uuidString)"
        let deviceKey = Data((0..<64).map { _ in UInt8.random(in: 0...255) })
        try fixture.session.set(token, for: .token)
        try fixture.session.set(deviceKey, for: .deviceKey)
        try fixture.session.set("alice@example.com", for: .email)

        let file = try #require(fixture.stateFileBytes)
        let text = String(decoding: file, as: UTF8.self)
        #expect(text.contains("alice@example.com"))
        for secret in [Data(token.utf8), Data(token.utf8).base64EncodedData(), deviceKey, deviceKey.base64EncodedData()] {
            #expect(file.firstRange(of: secret) == nil, "a secure value is in the state file")
        }
        #expect(!text.contains("token") && !text.contains("deviceKey"))

        let stored = try fixture.keyring.secretKeys().compactMap { try fixture.keyring.secret(forKey: $0) }
        #expect(Set(stored) == [Data(token.utf8), deviceKey])
    }

    @Test("The state file is 0600 in a 0700 folder under XDG_STATE_HOME/swift-keyring/<service>", arguments: TestStore.allCases)
    func defaultLocationAndModes(store: TestStore) throws {
        let keyring = try store.makeKeyring()
        let stateHome = try TemporaryFolder()
        defer { stateHome.remove() }
        let session = try Session<TestProperty>(
            keyring: keyring, requiredProperties: TestProperty.required,
            environment: ["XDG_STATE_HOME": stateHome.url.path, "HOME": "/nonexistent"])
        try session.set(true, for: .hasSeenOnboarding)

        let folder = stateHome.url.appending(path: "swift-keyring").appending(path: keyring.service)
        #expect(session.stateFileURL.path == folder.appending(path: "state.json").path)
        let fileMode = try FileManager.default.attributesOfItem(atPath: session.stateFileURL.path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
    }

    @Test("Without XDG_STATE_HOME the state file is under ~/.local/state", arguments: TestStore.allCases)
    func homeFallback(store: TestStore) throws {
        let keyring = try store.makeKeyring(service: "com.example/../evil")
        let home = try TemporaryFolder()
        defer { home.remove() }
        let session = try Session<TestProperty>(
            keyring: keyring, requiredProperties: [], environment: ["HOME": home.url.path, "XDG_STATE_HOME": "relative"])
        try session.set("x", for: .draft)
        let expected = home.url.appending(path: ".local/state/swift-keyring/com.example%2F..%2Fevil/state.json")
        #expect(session.stateFileURL.standardizedFileURL == expected.standardizedFileURL)
        #expect(FileManager.default.fileExists(atPath: expected.path))
    }

    /// Ways a state file can be damaged, and what the error must say besides the file's path.
    static let damages: [(name: String, bytes: Data)] = [
        ("not JSON", Data("this is not json {".utf8)),
        ("cut short", Data(#"{"format":1,"values":{"email":"al"#.utf8)),
        ("empty", Data()),
        ("wrong shape", Data(#"["format", 1]"#.utf8)),
        ("unknown format", Data(#"{"format":99,"values":{}}"#.utf8)),
        ("invalid UTF-8", Data([0x7B, 0xFF, 0xFE, 0x7D])),
    ]

    @Test("A damaged state file gives a clear error naming it and is never overwritten", arguments: TestStore.allCases, damages)
    func damagedFile(store: TestStore, damage: (name: String, bytes: Data)) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        try fixture.session.set("tok", for: .token)
        try fixture.session.set("u-1", for: .userID)
        try damage.bytes.write(to: fixture.session.stateFileURL)
        let path = fixture.session.stateFileURL.path

        let errors = [
            failure { _ = try fixture.secondSession() },
            failure { _ = try fixture.session.status },
            failure { _ = try fixture.session.string(for: .email) },
            failure { try fixture.session.set("new", for: .draft) },
            failure { try fixture.session.logout() },
        ]
        for error in errors {
            guard let error, error.code == .damaged else {
                Issue.record("expected KeyringError.damaged, got \(String(describing: error))")
                continue
            }
            #expect(error.place == .sessionStateFile)
            #expect(error.reason?.contains(path) == true)
            #expect(error.description.hasPrefix("The session state file is damaged: \(path) "), "\(error)")
        }
        #expect(try Data(contentsOf: fixture.session.stateFileURL) == damage.bytes)
        // Logout still forgot what it could: the token is not left in the keyring.
        #expect(try fixture.session.string(for: .token) == nil)
    }

    @Test("A state file that cannot be read gives an error naming it and is left alone", arguments: TestStore.allCases)
    func unreadableFile(store: TestStore) throws {
        let fixture = try SessionFixture(store)
        defer { fixture.tearDown() }
        // A folder where the file should be cannot be read even by root, unlike a chmod 000 file.
        try FileManager.default.createDirectory(at: fixture.session.stateFileURL, withIntermediateDirectories: true)
        let marker = fixture.session.stateFileURL.appending(path: "kept")
        try Data("kept".utf8).write(to: marker)
        let path = fixture.session.stateFileURL.path

        // As for the keyring file, anything but a regular file in the file's place is refused.
        for error in [failure { _ = try fixture.secondSession() }, failure { try fixture.session.set("new", for: .draft) }] {
            #expect(error == .insecurePermissions(path: path, reason: "it is not a regular file"))
            #expect(error?.place == .sessionStateFile)
        }
        #expect(try Data(contentsOf: marker) == Data("kept".utf8))
    }

    private func failure(_ body: () throws -> Void) -> KeyringError? {
        do {
            try body()
            return nil
        } catch {
            return error as? KeyringError
        }
    }
}

@Suite("Session state folder")
struct SessionStateFolderTests {
    @Test("A folder given as a relative or slash-ended URL is used as the same absolute folder")
    func givenFolder() throws {
        let keyring = try TestStore.memory.makeKeyring()
        let base = try TemporaryFolder()
        defer { base.remove() }
        let relative = URL(filePath: "state-folder/", relativeTo: URL(filePath: base.url.path + "/"))
        let session = try Session<TestProperty>(keyring: keyring, requiredProperties: [], stateDirectory: relative)
        try session.set("x", for: .draft)
        #expect(session.stateFileURL.path == base.url.appending(path: "state-folder/state.json").path)
        #expect(FileManager.default.fileExists(atPath: base.url.appending(path: "state-folder/state.json").path))
    }
}

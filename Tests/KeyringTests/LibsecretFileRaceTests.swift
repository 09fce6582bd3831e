import Foundation
import KeyringTestSupport
import Synchronization
import Testing

@testable import SwiftKeyring

/// libsecret writes without our lock: when it replaces the file after we read it and before our
/// rename, our write is redone on its version, so both writes are kept.
@Suite("libsecret file: a libsecret write during ours")
struct LibsecretFileRaceTests {
    @Test("secret-tool replacing the file while we write: both its item and our record are kept")
    func secretToolDuringOurWrite() throws {
        let url = try LibsecretFileFixture.newFileURL()
        let password = LibsecretFileFixture.randomPassword()
        let keyring = try Keyring(service: "race", store: LibsecretFileFixture.store(url: url, password: password))
        try keyring.setSecret(Data("before".utf8), forKey: "first")
        let runs = Runs()
        LibsecretFileState.beforeRenameHooks.withLock {
            $0[url.path] = {
                // The first time only: secret-tool stores its item between our read and our rename.
                guard runs.next() == 1 else { return }
                let stored = try? LibsecretFileFixture.secretTool(
                    ["store", "--label=racer", "app", "racer"], url: url, password: password, stdin: "theirs")
                #expect(stored?.status == 0, "\(stored?.stderr ?? "secret-tool did not run")")
            }
        }
        defer { _ = LibsecretFileState.beforeRenameHooks.withLock { $0.removeValue(forKey: url.path) } }
        try keyring.setSecret(Data("ours".utf8), forKey: "second")
        #expect(runs.count == 2, "the write was not redone once")
        let lookup = try LibsecretFileFixture.secretTool(["lookup", "app", "racer"], url: url, password: password)
        #expect(lookup.text == "theirs")
        let reopened = try Keyring(service: "race", store: LibsecretFileFixture.store(url: url, password: password))
        #expect(try reopened.secret(forKey: "first") == Data("before".utf8))
        #expect(try reopened.secret(forKey: "second") == Data("ours".utf8))
    }
}

/// How many times the hook ran.
private final class Runs: Sendable {
    private let value = Mutex(0)

    /// Counts one more run, and returns the count.
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }

    var count: Int { value.withLock { $0 } }
}

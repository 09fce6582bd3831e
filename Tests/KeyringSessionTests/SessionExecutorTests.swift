import Foundation
import KeyringSession
import KeyringTestSupport
import SwiftKeyring
import Synchronization
import Testing

/// A session's and a secret store's async calls run on their keyring's one executor, so
/// they run in the order they were made with the keyring's own async calls.
@Suite("Session and SecretStore on the keyring's executor")
struct SessionExecutorTests {
    @Test("A session's async save made while a keyring read waits runs after that read, state file included")
    func sessionAfterKeyring() async throws {
        let store = GateStore()
        let keyring = try Keyring(service: TestStore.uniqueService(), store: store)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let session = try await Session<TestProperty>(keyring: keyring, requiredProperties: [], stateDirectory: folder.url)
        let stateFile = session.stateFileURL
        // What the state file held when the keyring's read, made first, was let go.
        let heldAtRelease = Mutex<String?>(nil)
        store.whenReleased {
            heldAtRelease.withLock { $0 = (try? String(contentsOf: stateFile, encoding: .utf8)) ?? "" }
        }

        let read = Task { try await keyring.secret(forKey: GateStore.gateKey) }
        await store.waitUntilHeld()
        let saved = Finished()
        let save = Task {
            try await session.set("a draft", for: .draft)
            saved.mark()
        }
        // The save either queues behind the read (one executor) or, on an executor of its own, finishes.
        while keyring.executor.queuedOrRunning < 2, !saved.isMarked {
            try await Task.sleep(for: .milliseconds(1))
        }
        store.openGate()
        _ = try await read.value
        try await save.value

        #expect(heldAtRelease.withLock { $0 }?.contains("a draft") == false)
        #expect(try await session.string(for: .draft) == "a draft")
    }

    @Test("A secret store's async calls queue behind a keyring read made first")
    func secretStoreAfterKeyring() async throws {
        let store = GateStore()
        let keyring = try Keyring(service: TestStore.uniqueService(), store: store)
        let secrets = try SecretStore(keyring: keyring, account: "alice")
        let read = Task { try await keyring.secret(forKey: GateStore.gateKey) }
        await store.waitUntilHeld()
        let saved = Finished()
        let save = Task {
            try await secrets.set("v", forKey: "token")
            saved.mark()
        }
        while keyring.executor.queuedOrRunning < 2, !saved.isMarked {
            try await Task.sleep(for: .milliseconds(1))
        }
        let callsWhileHeld = store.seenCalls.count
        store.openGate()
        _ = try await read.value
        try await save.value
        // Nothing reached the store while the read waited: the save ran after it. (The calls say
        // whether the held read left at its bound, should this fail.)
        #expect(callsWhileHeld == 0, "\(store.seenCalls)")
        #expect(try await secrets.string(forKey: "token") == "v")
    }
}

/// Whether a task got to its end.
private final class Finished: Sendable {
    private let value = Mutex(false)
    func mark() { value.withLock { $0 = true } }
    var isMarked: Bool { value.withLock { $0 } }
}

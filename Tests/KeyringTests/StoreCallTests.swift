import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// A store of a third party's kind gets what ours get: each public call's one deadline, and
/// the cancellation of an async call whose task is cancelled.
@Suite("Store calls")
struct StoreCallTests {
    @Test("A keyring on a store of its own kind reports that kind, and the store's identity")
    func identity() throws {
        let keyring = try Keyring(service: TestStore.uniqueService(), store: GateStore())
        #expect(keyring.selection == StoreSelection(kind: GateStore.kind, reason: "given by the caller"))
        #expect(keyring.store.identity.description == "gate (gate: in memory)")
    }

    @Test("Each call, sync or async, reaches the store with a deadline of the store's callTimeout")
    func deadline() async throws {
        let store = GateStore(callTimeout: .seconds(7))
        let keyring = try Keyring(service: TestStore.uniqueService(), store: store)
        try Self.synchronously { try keyring.set(try Samples.credentials("alice"), forKey: "work") }
        _ = try await keyring.credentials(forKey: "work")
        try await keyring.setSecret(Data("s".utf8), forKey: "token")
        try Self.synchronously { _ = try keyring.list() }
        let calls = store.seenCalls
        #expect(calls.count == 4)
        #expect(calls.allSatisfy { $0.timeout == .seconds(7) && !$0.cancelled })
    }

    @Test("Cancelling an async call's task cancels the store's call: its handler ends the wait, and it sees isCancelled")
    func cancellation() async throws {
        let store = GateStore()
        let keyring = try Keyring(service: TestStore.uniqueService(), store: store)
        let read = Task { try await keyring.secret(forKey: GateStore.gateKey) }
        await store.waitUntilHeld()
        read.cancel()
        await #expect(throws: CancellationError.self) { try await read.value }
        // The store's call ends on the keyring's executor; the next call runs after it.
        _ = try await keyring.secretKeys()
        let held = try #require(store.seenCalls.first)
        #expect(held.wokenByCancellation, "\(store.seenCalls)")
        #expect(held.cancelled)
        #expect(store.seenCalls.last?.cancelled == false)
    }

    @Test("A synchronous call is never cancelled; its store call sees a live call")
    func synchronous() throws {
        let store = GateStore()
        let keyring = try Keyring(service: TestStore.uniqueService(), store: store)
        #expect(try keyring.secret(forKey: "absent") == nil)
        #expect(store.seenCalls.map(\.cancelled) == [false])
    }

    /// Runs `body` as synchronous code, so the keyring's synchronous calls are the ones made.
    private static func synchronously(_ body: () throws -> Void) rethrows {
        try body()
    }
}

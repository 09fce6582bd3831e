import Foundation
import KeyringTestSupport
import Synchronization
import Testing

@testable import SwiftKeyring

/// The D-Bus connection of our own (`BusConnection`) shared between threads, as a store
/// shares it: every call gets the reply to its own question, whichever thread read it off
/// the socket, and a cancelled wait ends at once without disturbing the others.
@Suite("The bus connection shared between threads")
struct BusConnectionTests {
    @Test("8 threads on one connection: each of 1,600 calls gets its own answer")
    func repliesGoToTheirCalls() throws {
        let environment = try PrivateSecretService.environment()
        let bus = try BusConnection(address: SessionBusAddress.resolve(environment), deadline: Deadline(.seconds(10)))
        let daemon = BusObject(bus: bus, destination: BusConnection.busName, path: BusConnection.busPath)
        let wrong = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
        let reached = AtOnce.threads(8) { thread in  // 8 threads of their own, from one barrier
            for call in 0..<200 {
                // Our own name has an owner, a made-up one has none: the answer tells which question it answers.
                let owned = (thread + call) % 2 == 0
                let name = owned ? bus.uniqueName : ":1.\(900_000 + thread * 1000 + call)"
                do {
                    let reply = try daemon.send(
                        BusConnection.busName, "NameHasOwner", signature: "s", reply: "b", deadline: Deadline(.seconds(30)),
                        decode: { try $0.boolean() }
                    ) { $0.string(name) }.value(asked: "ask whether a name has an owner", deadline: Deadline(.seconds(30)))
                    if reply != owned { wrong.add(1, ordering: .relaxed) }
                } catch {
                    failed.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(reached == 8, "only \(reached) of 8 threads reached the barrier")
        #expect(wrong.load(ordering: .relaxed) == 0 && failed.load(ordering: .relaxed) == 0)
    }

    @Test("A cancelled wait ends with CancellationError; the connection keeps answering the other threads")
    func cancelledWaitEnds() throws {
        let environment = try PrivateSecretService.environment()
        let bus = try BusConnection(address: SessionBusAddress.resolve(environment), deadline: Deadline(.seconds(10)))
        let cancellation = OperationCancellation()
        let outcome = Mutex<String>("none")
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // A wait for something that never comes: only the cancellation can end it before its minute.
            let result: String
            do {
                try cancellation.bind {
                    try bus.wait("wait for nothing", deadline: Deadline(.seconds(60))) { false }
                }
                result = "returned"
            } catch is CancellationError {
                result = "cancelled"
            } catch {
                result = "\(error)"
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        // Calls from this thread are answered while the other waits (it may be the one reading).
        for _ in 0..<20 {
            #expect(try bus.nameOwner(BusConnection.busName, deadline: Deadline(.seconds(10))) == BusConnection.busName)
        }
        cancellation.cancel()
        #expect(done.wait(timeout: .now() + 30) == .success, "the cancelled wait did not end")
        #expect(outcome.withLock { $0 } == "cancelled")
        #expect(try bus.nameOwner(BusConnection.busName, deadline: Deadline(.seconds(10))) == BusConnection.busName)
    }
}

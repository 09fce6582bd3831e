import Foundation
import KeyringTestSupport
import Synchronization
import Testing

@testable import SwiftKeyring

/// What a person at a desktop sees when the keyring is locked: gnome-keyring asks
/// them for the password through its prompter (here gcr's mock prompter, which
/// answers like a person), and the call waits for them, not for the call bound.
///
/// Each test starts its own bus, prompter and daemon, since it locks the keyring;
/// they fail, never skip, when any of the three cannot start.
@Suite("Unlock prompts")
struct UnlockPromptTests {
    /// A sandbox with a record stored under `work`, then locked, and a keyring on it.
    private struct Locked {
        let sandbox: SecretServiceSandbox
        let store: SecretServiceStore
        let keyring: Keyring
        let stored: Credentials

        init(_ prompter: MockPrompter, timeout: Duration = .seconds(5), promptTimeout: Duration = .seconds(60)) throws {
            sandbox = try SecretServiceSandbox(.busAndDaemon, prompter: prompter)
            // A display, as at a desktop: without one, a dismissed prompt reads as "locked".
            let desktop = sandbox.environment.merging(["DISPLAY": ":99"]) { $1 }
            store = try SecretServiceStore(timeout: timeout, promptTimeout: promptTimeout, environment: desktop)
            keyring = try Keyring(service: "test.prompt", store: store)
            stored = try Samples.credentials("kept")
            try keyring.set(stored, forKey: "work")
            try sandbox.lockDefaultCollection()
            guard try store.isLocked() else { throw ChildProcess.Failure(description: "Lock left the collection unlocked") }
        }
    }

    @Test("A prompt answered after 1 s: the read returns the record, and the keyring is unlocked")
    func answeredQuickly() throws {
        let locked = try Locked(MockPrompter(delay: .seconds(1), answers: [.password]))
        defer { locked.sandbox.stop() }
        let keyring = locked.keyring
        let result = BoundedCall.run(within: .seconds(60)) { try keyring.credentials(forKey: "work") }
        #expect(try result?.get() == locked.stored)
        #expect(try locked.store.isLocked() == false)
    }

    @Test("A Completed signal another program sends does not end the unlock prompt: the read waits for the person")
    func completionFromAnotherProgram() throws {
        let locked = try Locked(MockPrompter(delay: .seconds(4), answers: [.password]))
        defer { locked.sandbox.stop() }
        let keyring = locked.keyring
        let environment = locked.sandbox.environment
        // A monitor on the bus sees the client's Prompt call (so the forger knows the prompt's real
        // path and the client's name) and every Completed signal, forged or not: the control.
        let monitor = try PromptMonitor(environment: environment)
        defer { monitor.stop() }
        // While the person takes 4 s, another program says the prompt was dismissed, on the prompt's
        // own path: once to everyone listening, once straight to the client.
        let forged = Mutex<[Int32]>([])
        let forger = Thread {
            guard let call = monitor.promptCall(within: .seconds(30)) else { return }
            for destination in [nil, call.client] {
                let status = try? ChildProcess.run(
                    ["dbus-send", "--session", "--type=signal"] + (destination.map { ["--dest=\($0)"] } ?? []) + [
                        call.path, "org.freedesktop.Secret.Prompt.Completed", "boolean:true", "variant:string:",
                    ], environment: environment
                ).status
                forged.withLock { $0.append(status ?? -1) }
            }
        }
        forger.start()
        let result = BoundedCall.run(within: .seconds(60)) { try keyring.credentials(forKey: "work") }
        // The client ignored the forgeries: it waited for the person and read the record.
        #expect(try result?.get() == locked.stored)

        // The control: both forgeries reached the bus on the prompt's path before the daemon's own Completed.
        let call = try #require(monitor.promptCall(within: .seconds(1)), "the client never called Prompt: no prompt to forge")
        #expect(forged.withLock { $0 } == [0, 0], "dbus-send's statuses for the forged signals: \(forged.withLock { $0 })")
        let completions = monitor.completions(on: call.path)
        let fromOthers = completions.prefix { $0 != call.daemon }
        #expect(
            fromOthers.count == 2, "Completed senders on \(call.path), in order: \(completions); the daemon is \(call.daemon)")
        #expect(completions.contains(call.daemon), "the daemon's own Completed never came: \(completions)")
    }

    @Test("A prompt answered after 8 s, longer than the 5 s call bound: the password is still returned")
    func answeredSlowly() throws {
        let locked = try Locked(MockPrompter(delay: .seconds(8), answers: [.password]), timeout: .seconds(5))
        defer { locked.sandbox.stop() }
        let keyring = locked.keyring
        let result = BoundedCall.run(within: .seconds(60)) { try keyring.password(forKey: "work") }
        #expect(try result?.get() == locked.stored.password)
    }

    @Test("A dismissed prompt: .promptDismissed, the keyring stays locked, and the record is kept")
    func dismissed() throws {
        let locked = try Locked(MockPrompter(delay: .seconds(1), answers: [.cancel]))
        defer { locked.sandbox.stop() }
        let keyring = locked.keyring
        #expect(BoundedCall.keyringError(within: .seconds(60)) { try keyring.credentials(forKey: "work") } == .promptDismissed)
        #expect(try locked.store.isLocked())
        #expect(try keyring.list().map(\.username) == ["kept"])
    }

    @Test("A prompt nobody answers, with a 3 s prompt bound: .promptTimedOut, and the daemon answers the next call")
    func neverAnswered() throws {
        let locked = try Locked(.absent, timeout: .seconds(5), promptTimeout: .seconds(3))
        defer { locked.sandbox.stop() }
        let keyring = locked.keyring
        let error = BoundedCall.keyringError(within: .seconds(60)) { try keyring.credentials(forKey: "work") }
        guard let error, error.code == .promptTimedOut, let seconds = error.seconds else {
            Issue.record("expected .promptTimedOut, got \(String(describing: error))")
            return
        }
        #expect(seconds == 3)
        // The store dismissed its prompt: the daemon is free for the next call, and still running.
        #expect(try keyring.list().map(\.username) == ["kept"])
        #expect(try locked.store.isLocked())
        #expect(locked.sandbox.daemonIsRunning)
    }

    @Test("After a prompt timed out, a later read waits behind the prompt still open and returns once the person answers")
    func laterReadAfterTimeout() throws {
        let locked = try Locked(MockPrompter(delay: .seconds(6), answers: [.password]), promptTimeout: .seconds(2))
        defer { locked.sandbox.stop() }
        let impatient = locked.keyring
        guard
            BoundedCall.keyringError(within: .seconds(60), { try impatient.credentials(forKey: "work") })?.code == .promptTimedOut
        else {
            Issue.record("the first read should time out at its 2 s prompt bound")
            return
        }
        let desktop = locked.sandbox.environment.merging(["DISPLAY": ":99"]) { $1 }
        let patient = try Keyring(
            service: "test.prompt", store: SecretServiceStore(promptTimeout: .seconds(60), environment: desktop))
        let result = BoundedCall.run(within: .seconds(90)) { try patient.credentials(forKey: "work") }
        #expect(try result?.get() == locked.stored)
        #expect(locked.sandbox.daemonIsRunning)
    }

    @Test("set while locked, prompt answered: the new value is stored")
    func setWhileLocked() throws {
        let locked = try Locked(MockPrompter(delay: .seconds(1), answers: [.password]))
        defer { locked.sandbox.stop() }
        let keyring = locked.keyring
        let fresh = try Samples.credentials("fresh")
        let result = BoundedCall.run(within: .seconds(60)) { try keyring.set(fresh, forKey: "other") }
        #expect(throws: Never.self) { try result?.get() }
        #expect(try keyring.credentials(forKey: "other") == fresh)
        #expect(try keyring.list().map(\.key) == ["other", "work"])
    }

    @Test("set while locked, prompt dismissed: .promptDismissed and nothing is stored")
    func setWhileLockedDismissed() throws {
        let locked = try Locked(MockPrompter(delay: .seconds(1), answers: [.cancel]))
        defer { locked.sandbox.stop() }
        let keyring = locked.keyring
        let fresh = try Samples.credentials("fresh")
        #expect(BoundedCall.keyringError(within: .seconds(60)) { try keyring.set(fresh, forKey: "work") } == .promptDismissed)
        #expect(try keyring.list().map(\.username) == ["kept"])
    }

    @Test("removeAll while locked, prompt answered: every record is removed")
    func removeAllWhileLocked() throws {
        let locked = try Locked(MockPrompter(delay: .seconds(1), answers: [.password]))
        defer { locked.sandbox.stop() }
        let keyring = locked.keyring
        let result = BoundedCall.run(within: .seconds(60)) { try keyring.removeAll() }
        #expect(try result?.get() == 1)
        #expect(try keyring.list().isEmpty)
    }

    @Test("removeAll while locked, prompt answered after 4 s, longer than a 2 s call bound: every record is removed")
    func removeAllAnsweredSlowly() throws {
        let locked = try Locked(MockPrompter(delay: .seconds(4), answers: [.password]), timeout: .seconds(2))
        defer { locked.sandbox.stop() }
        let keyring = locked.keyring
        let result = BoundedCall.run(within: .seconds(60)) { try keyring.removeAll() }
        #expect(try result?.get() == 1)
        #expect(try keyring.list().isEmpty)
    }

    @Test("remove while locked, prompt answered: the record is removed")
    func removeWhileLocked() throws {
        let locked = try Locked(MockPrompter(delay: .seconds(1), answers: [.password]))
        defer { locked.sandbox.stop() }
        let keyring = locked.keyring
        let result = BoundedCall.run(within: .seconds(60)) { try keyring.remove(forKey: "work") }
        #expect(try result?.get() == true)
        #expect(try keyring.list().isEmpty)
    }

    @Test("A cancelled operation while the prompt is open: CancellationError, and the daemon answers the next call")
    func cancelledWhilePrompting() throws {
        let locked = try Locked(.absent, promptTimeout: .seconds(60))
        defer { locked.sandbox.stop() }
        let keyring = locked.keyring
        let cancellation = OperationCancellation()
        // Whenever the cancel lands (before the prompt opens or while it is open), the outcome is the same.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 1)
            cancellation.cancel()
        }
        let result = BoundedCall.run(within: .seconds(30)) {
            try cancellation.bind { try keyring.credentials(forKey: "work") }
        }
        guard case .failure(let error) = result else {
            Issue.record("expected CancellationError, got \(String(describing: result))")
            return
        }
        #expect(error is CancellationError)
        #expect(locked.sandbox.daemonIsRunning)
        #expect(throws: Never.self) { try keyring.list() }
    }
}

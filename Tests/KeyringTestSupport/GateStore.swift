import Dispatch
import SwiftKeyring
import Synchronization

/// A store of a third party's own kind, as a store author writes one: it keeps records in
/// memory, notes the `StoreCall` of every call, and holds a read of `GateStore.gateKey`
/// until the test opens the gate or the call is cancelled.
package final class GateStore: CredentialStore {
    /// The key whose read waits at the gate.
    package static let gateKey = "gate"
    /// A kind no list in the library names.
    package static let kind = StoreKind("gate")

    /// What the store saw of one call.
    package struct SeenCall: Sendable {
        /// The whole budget of the call's deadline.
        package var timeout: Duration
        /// Whether the call was cancelled when the store finished with it.
        package var cancelled: Bool
        /// Whether a wait at the gate was ended by the call's cancellation handler.
        package var wokenByCancellation: Bool
        /// Whether a wait at the gate ran to its bound (`GateStore.holdBound`): neither the test
        /// opened the gate nor a cancellation reached it.
        package var heldToBound = false
    }

    package let callTimeout: Duration
    private let records = MemoryStore()
    private let entered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let calls = Mutex<[SeenCall]>([])
    private let released = Mutex<(@Sendable () -> Void)?>(nil)

    /// A store whose calls get deadlines of `callTimeout`.
    package init(callTimeout: Duration = .seconds(7)) {
        self.callTimeout = callTimeout
    }

    package var identity: StoreIdentity {
        StoreIdentity(kind: Self.kind, details: [StoreDetail("gate", "in memory")])
    }

    /// Every call so far, in order.
    package var seenCalls: [SeenCall] { calls.withLock { $0 } }

    /// Runs `body` on the thread of the held call, right after the gate opens and before the call returns.
    package func whenReleased(_ body: @escaping @Sendable () -> Void) {
        released.withLock { $0 = body }
    }

    /// Returns once a read of the gate key is waiting at the gate.
    package func waitUntilHeld() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                self.entered.wait()
                continuation.resume()
            }
        }
    }

    /// Lets the waiting read go on.
    package func openGate() {
        gate.signal()
    }

    package func record(for id: RecordID, call: StoreCall) throws -> StoredRecord? {
        var woken = false
        var boundRanOut = false
        if id.key == Self.gateKey {
            (woken, boundRanOut) = hold(call)
            released.withLock { $0 }?()
        }
        note(call, woken: woken, boundRanOut: boundRanOut)
        try call.checkCancellation()
        return try records.record(for: id, call: call)
    }

    package func save(_ record: StoredRecord, call: StoreCall) throws {
        note(call)
        try records.save(record, call: call)
    }

    package func removeRecord(for id: RecordID, call: StoreCall) throws -> Bool {
        note(call)
        return try records.removeRecord(for: id, call: call)
    }

    package func summaries(service: String, kind: RecordKind?, call: StoreCall) throws -> [RecordSummary] {
        note(call)
        return try records.summaries(service: service, kind: kind, call: call)
    }

    package func removeAll(service: String, kind: RecordKind?, call: StoreCall) throws -> Int {
        note(call)
        return try records.removeAll(service: service, kind: kind, call: call)
    }

    /// How long a read waits at the gate at most, so that a broken cancellation handler fails the
    /// test instead of hanging it. Five minutes, not one: the test's own steps after
    /// `waitUntilHeld()` (cancel the task, start a second call) run on the concurrency runtime's
    /// shared threads, one a core, which the suite's synchronous tests hold while they wait on
    /// daemons and processes. Beside a CPU hog on a 2-core machine two tests failed as a step so
    /// queued for over a minute would make them fail (the held read let go unopened and
    /// uncancelled): with a one-minute bound the clock, not the code, could decide them.
    package static let holdBound: Duration = .seconds(300)

    /// Waits at the gate until it opens or the call is cancelled (`holdBound` at most); returns
    /// whether the cancellation ended the wait, and whether the bound did.
    private func hold(_ call: StoreCall) -> (woken: Bool, boundRanOut: Bool) {
        entered.signal()
        let cancelled = CancelFlag()
        let gate = self.gate
        let waited = call.withCancellationHandler {
            gate.wait(timeout: .now() + Self.holdBound.inSeconds)
        } onCancel: {
            cancelled.set()
            gate.signal()
        }
        return (cancelled.isSet, waited == .timedOut)
    }

    private func note(_ call: StoreCall, woken: Bool = false, boundRanOut: Bool = false) {
        calls.withLock {
            $0.append(
                SeenCall(
                    timeout: call.deadline.timeout, cancelled: call.isCancelled, wokenByCancellation: woken,
                    heldToBound: boundRanOut))
        }
    }
}

/// Whether a cancellation handler ran.
private final class CancelFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

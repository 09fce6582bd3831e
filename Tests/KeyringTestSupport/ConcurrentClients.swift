import Foundation
import SwiftKeyring
import Synchronization
import Testing

/// What the concurrent-clients stress suites share (the library's, in `KeyringTests`, and the
/// tool's, in `CLITests`): real threads for a fixed time, a tally of outcomes, the identity of
/// the daemon, and the check of what the clients left behind.
///
/// Many clients at once is what a desktop does (a browser, a mail client and a shell all
/// asking at login), and it is where gnome-keyring and KeePassXC have crashed: a daemon that
/// dies takes every client's records offline, and a client that sees a raw D-Bus error
/// cannot tell a user what to do.
package enum ConcurrentClients {
    /// The keys every client works on: few, so that clients collide on them all the time.
    package static let keys = ["alpha", "beta", "gamma"]
    /// The URL every record the stresses write carries.
    package static let url = URL(string: "https://example.com")!

    /// How long the clients run, and how many calls one thread makes at most (so a fast
    /// machine does not turn the suite into a benchmark).
    package static let duration: Duration = .seconds(12)
    package static let callsPerClient = 500

    /// The bound on every D-Bus call of one operation, and on an unlock prompt. The call bound is
    /// a generous hang bound, not a clock the run races: with 5 s, a gnome-keyring starved of
    /// CPU (its process held to a quarter of one core) let calls reach it, and in about one run
    /// in three the daemon then aborted (`gkd_secret_service_get_pkcs11_session: assertion
    /// 'client' failed`), as it did in loaded and idle CI runs whose stress counted timeouts;
    /// with 60 s, eight such runs met no timeout and no abort. What a timeout does to the
    /// daemon is not what this stress asks.
    package static let storeTimeout: Duration = .seconds(60)
    package static let promptTimeout: Duration = .seconds(3)

    /// The longest one step (connecting, or one call) may take before it counts as a hang:
    /// the store's timeout, plus its prompt bound, plus room for a loaded two-core machine.
    package static let hangBound: Duration = storeTimeout + promptTimeout + .seconds(2)

    /// A new store, on a connection of its own, to the private Secret Service.
    package static func makeStore(environment: [String: String]) throws -> SecretServiceStore {
        try SecretServiceStore(timeout: storeTimeout, promptTimeout: promptTimeout, environment: environment)
    }

    /// The attributes every credentials item of `service` under `key` carries (see `SecretAttributes`).
    package static func itemAttributes(service: String, key: String) -> [String: String] {
        ["tag": "swift-keyring", "service": service, "key": key, "kind": "credentials"]
    }

    /// Runs `body(client, call)` on `clients` threads of their own (the calls block, so not on
    /// Swift concurrency's pool) until `duration` has passed or a thread made `callsPerClient` calls.
    /// - Returns: whether every thread ended within `grace` after the end of the run.
    package static func run(
        clients: Int,
        for duration: Duration = ConcurrentClients.duration,
        grace: Duration = .seconds(120),
        _ body: @escaping @Sendable (_ client: Int, _ call: Int) -> Void
    ) -> Bool {
        let end = ContinuousClock.now + duration
        let group = DispatchGroup()
        for client in 0..<clients {
            group.enter()
            Thread.detachNewThread {
                var call = 0
                while call < callsPerClient && ContinuousClock.now < end {
                    body(client, call)
                    call += 1
                }
                group.leave()
            }
        }
        let (seconds, attoseconds) = (duration + grace).components
        let wait = Double(seconds) + Double(attoseconds) / 1e18
        return group.wait(timeout: .now() + wait) == .success
    }

    /// The name of an error's case, for counting, and whether a client must never see it: a
    /// backend error (raw D-Bus or libsecret text), an unavailable service (the daemon gone),
    /// a damaged store, or any error that is not a `KeyringError`.
    package static func classify(_ error: any Error) -> (kind: String, isFailure: Bool) {
        guard let error = error as? KeyringError else { return ("\(type(of: error))", true) }
        let failures: Set<KeyringError.Code> = [.backend, .serviceUnavailable, .damaged]
        return (error.code.name, failures.contains(error.code))
    }

    /// The whole stress run both suites make: records the daemon, runs `body(client, call)` on
    /// eight threads for `duration`, prints the tally, then expects the same daemon, no
    /// failure, and at most one item per key holding a written password (read through the
    /// library on `environment`).
    /// - Parameter actions: the actions `body` counts (the first word of each kind), every one of
    ///   which must have succeeded at least once.
    package static func stress(
        _ label: String, service: String, environment: [String: String], actions: [String],
        _ body: @escaping @Sendable (_ client: Int, _ call: Int, _ tally: Tally) -> Void
    ) throws {
        let before = try #require(try PrivateSecretService.daemonIdentity(), "nobody owns org.freedesktop.secrets")
        let tally = Tally()
        let started = ContinuousClock.now
        let ended = run(clients: 8) { client, call in body(client, call, tally) }
        let elapsed = ContinuousClock.now - started
        print("Concurrent clients (\(label), \(PrivateSecretService.daemon.rawValue)), \(elapsed):\n\(tally.report)")

        #expect(ended, "a client was still running two minutes after the run ended")
        let after = try PrivateSecretService.daemonIdentity()
        #expect(after == before, "the daemon was \(before) before the run and is \(after.map(\.description) ?? "gone") after")
        #expect(tally.failures.isEmpty, "\(tally.firstFailures)")
        let unanswered = missingSuccesses(tally, actions: actions)
        #expect(unanswered.isEmpty, "\(unanswered.joined(separator: "; "))")
        let found = try leftovers(
            service: service, written: tally.written, cutShort: tally.keysCutShort, environment: environment)
        #expect(found.problems.isEmpty, "\(found.problems.joined(separator: "; "))")
        print("Concurrent clients (\(label)): \(found.held) of \(keys.count) keys hold a record")
    }

    /// What the outcomes fail to show: each of `actions` must have succeeded at least once. The
    /// errors a client may meet under load (`.timedOut`, `.locked`) are no failure, but a daemon
    /// that answered every call with one of them served nobody, and must not pass.
    /// - Returns: one line per action that never succeeded (empty when all did).
    package static func missingSuccesses(_ tally: Tally, actions: [String]) -> [String] {
        let succeeded = tally.succeeded
        return actions.filter { succeeded[$0, default: 0] == 0 }.map { action in
            "no \(action) call succeeded (\(tally.counts(of: action)))"
        }
    }

    /// What the clients left under `service`: each key must be held by at most one item of
    /// ours, and a key that is held must read back as a password some client wrote.
    ///
    /// A write cut short by its bound (a timeout under load, which the run counts as an answer)
    /// may leave two items: its clean-up is what was cut (see `ItemReplacement`). For a key in
    /// `cutShort` with more than one item, one more write is made, as the next client's would
    /// be, and then exactly one item must hold the key: so that "never two for long" is what is
    /// checked, not the machine's load.
    /// - Returns: the problems found (empty when all is well) and how many keys hold a record.
    package static func leftovers(
        service: String, written: Set<String>, cutShort: Set<String>, environment: [String: String]
    ) throws -> (problems: [String], held: Int) {
        var problems: [String] = []
        var held = 0
        var written = written
        for key in keys {
            let attributes = itemAttributes(service: service, key: key)
            var count = try PrivateSecretService.itemCount(attributes)
            if count > 1, cutShort.contains(key) {
                let password = "settled-\(key)"
                written.insert(password)
                let keyring = try Keyring(service: service, store: makeStore(environment: environment))
                try keyring.set(try Credentials(username: "settler", password: password, url: url), forKey: key)
                let before = count
                count = try PrivateSecretService.itemCount(attributes)
                print("Concurrent clients: \(key) was held by \(before) items after a write cut short; one more left \(count)")
                if count > 1 { problems.append("\(key) is held by \(count) items after a write cut short and one more write") }
            } else if count > 1 {
                problems.append("\(key) is held by \(count) items")
            }
            guard count > 0 else { continue }
            held += 1
            do {
                let keyring = try Keyring(service: service, store: makeStore(environment: environment))
                switch try keyring.password(forKey: key) {
                case nil: problems.append("\(key) has an item, but reads as no record")
                case let password? where !written.contains(password):
                    problems.append("\(key) holds a password no client wrote")
                default: break
                }
            } catch {
                problems.append("\(key) could not be read back: \(error)")
            }
        }
        return (problems, held)
    }

    /// Outcomes counted by kind from many threads, the failures described, and every password written.
    package final class Tally: Sendable {
        private struct State {
            var counts: [String: Int] = [:]
            var failures: [String] = []
            var written: Set<String> = []
            var cutShort: Set<String> = []
            var slowest: Duration = .zero
            /// Successful outcomes by action (the first word of their kind).
            var succeeded: [String: Int] = [:]
        }

        private let state = Mutex(State())

        package init() {}

        /// Counts one outcome of `kind` (its first word names the action), which took `duration`;
        /// `succeeded` is false for an error a client may meet (a timeout, a locked collection).
        package func count(_ kind: String, took duration: Duration = .zero, succeeded: Bool = true) {
            state.withLock {
                $0.counts[kind, default: 0] += 1
                $0.slowest = max($0.slowest, duration)
                if succeeded, let action = kind.split(separator: " ").first {
                    $0.succeeded[String(action), default: 0] += 1
                }
            }
        }

        /// Successful outcomes by action.
        package var succeeded: [String: Int] { state.withLock { $0.succeeded } }

        /// The counts of every outcome of `action`, as "kind: count" for a message.
        package func counts(of action: String) -> String {
            let lines = state.withLock { $0.counts }.filter { $0.key.hasPrefix(action + " ") }.sorted { $0.key < $1.key }
            return lines.isEmpty ? "never called" : lines.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        }

        /// Counts one outcome of `kind` as a failure, described by `description` (which must hold no password).
        package func fail(_ kind: String, _ description: String, took duration: Duration = .zero) {
            state.withLock {
                $0.counts[kind + " FAILED", default: 0] += 1
                $0.failures.append(description)
                $0.slowest = max($0.slowest, duration)
            }
        }

        /// Remembers a password before it is written: a write cut short may still land.
        package func wrote(_ password: String) {
            _ = state.withLock { $0.written.insert(password) }
        }

        /// Notes that a write or removal of `key` ended at its bound, its clean-up perhaps undone.
        package func cutShort(_ key: String) {
            _ = state.withLock { $0.cutShort.insert(key) }
        }

        /// The keys whose writes or removals ended at their bound.
        package var keysCutShort: Set<String> { state.withLock { $0.cutShort } }

        package var written: Set<String> { state.withLock { $0.written } }
        package var failures: [String] { state.withLock { $0.failures } }

        /// The first few failures, for an expectation's message.
        package var firstFailures: String {
            let failures = self.failures
            return "\(failures.count) failed: " + failures.prefix(5).joined(separator: "; ")
        }

        /// One line per kind with its count, then the total and the slowest call; never a password.
        package var report: String {
            state.withLock { state in
                let lines = state.counts.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
                let total = state.counts.values.reduce(0, +)
                return (lines + ["  total: \(total), slowest: \(state.slowest)"]).joined(separator: "\n")
            }
        }
    }
}

extension PrivateSecretService {
    /// The process that owns `org.freedesktop.secrets`: its unique bus name, never reused
    /// on one bus, so a daemon that crashed and was started again has another.
    package struct DaemonIdentity: Equatable, Sendable, CustomStringConvertible {
        package var busName: String
        package var pid: String?

        package var description: String { "\(busName) (pid \(pid ?? "unknown"))" }
    }

    /// The daemon that owns `org.freedesktop.secrets` now; `nil` when nobody does.
    package static func daemonIdentity() throws -> DaemonIdentity? {
        guard let busName = try busCall("GetNameOwner", "string:org.freedesktop.secrets", answer: "string") else {
            return nil
        }
        let pid = try busCall("GetConnectionUnixProcessID", "string:\(busName)", answer: "uint32")
        return DaemonIdentity(busName: busName, pid: pid)
    }

    /// Asks the bus itself with `dbus-send`; the value of the reply's `answer`-typed line, or
    /// `nil` when the bus answered with an error (a name nobody owns).
    private static func busCall(_ method: String, _ argument: String, answer: String) throws -> String? {
        let output = try ChildProcess.run(
            [
                "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                "org.freedesktop.DBus.\(method)", argument,
            ],
            environment: environment())
        guard output.status == 0 else { return nil }
        let text = String(decoding: output.standardOutput, as: UTF8.self)
        guard
            let line = text.split(separator: "\n").first(where: {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix(answer + " ")
            })
        else { return nil }
        let value = line.trimmingCharacters(in: .whitespaces).dropFirst(answer.count + 1)
        return value.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }
}

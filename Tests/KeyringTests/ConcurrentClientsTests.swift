import Foundation
import KeyringTestSupport
import SwiftKeyring
import Testing

/// Many clients of the library at once never crash the Secret Service daemon and never see
/// a raw error.
///
/// Eight threads, for about 12 seconds, each call on a new connection (as eight programs
/// starting at login would be), mixing writes, reads, removals and listings on three keys
/// they all share. Afterwards the daemon that owns `org.freedesktop.secrets` must be the one
/// that owned it before (gnome-keyring's bus starts a new one after a crash, so that a name
/// is owned proves nothing), no call may have failed with a backend error, an unavailable
/// service, a damaged store, a foreign error or a hang, no read may have returned a torn
/// record or a password nobody wrote, and each key must be held by at most one item, holding
/// a password some client wrote.
///
/// Runs on the private daemon of `Scripts/with-secret-service.sh`, `with-keepassxc.sh` or `with-kwallet.sh`,
/// and fails, never skips, without one.
@Suite("Concurrent clients on the Secret Service")
struct ConcurrentClientsTests {
    /// What each call does; each must succeed at least once in the run.
    static let actions = ["set", "credentials", "password", "remove", "list"]

    @Test(
        "8 threads, a new connection per call, for 12 s: the same daemon after, no raw error, every call kind answered, one item per key"
    )
    func eightClients() throws {
        let environment = try PrivateSecretService.environment()
        let service = TestStore.uniqueService("concurrent")
        defer { _ = try? Keyring(service: service, store: ConcurrentClients.makeStore(environment: environment)).removeAll() }
        try ConcurrentClients.stress("library", service: service, environment: environment, actions: Self.actions) {
            client, call, tally in
            Self.operate(client: client, call: call, service: service, environment: environment, tally: tally)
        }
    }

    @Test("The run's check fails a daemon that timed out or stayed locked for every call, and passes one that answered")
    func unansweredCallsFail() {
        // The control for eightClients: its tolerated errors alone must not pass.
        let timedOut = ConcurrentClients.Tally()
        for action in Self.actions {
            timedOut.count("\(action) error timedOut", succeeded: false)
            timedOut.count("\(action) error locked", succeeded: false)
        }
        let unanswered = ConcurrentClients.missingSuccesses(timedOut, actions: Self.actions)
        #expect(unanswered.count == Self.actions.count, "\(unanswered)")
        #expect(unanswered.first == "no set call succeeded (set error locked: 1, set error timedOut: 1)")
        let oneMissing = ConcurrentClients.Tally()
        for action in Self.actions.dropLast() { oneMissing.count("\(action) ok") }
        #expect(
            ConcurrentClients.missingSuccesses(oneMissing, actions: Self.actions) == ["no list call succeeded (never called)"])
        oneMissing.count("list ok")
        oneMissing.count("list error timedOut", succeeded: false)
        #expect(ConcurrentClients.missingSuccesses(oneMissing, actions: Self.actions).isEmpty)
    }

    /// One call of one client on a new store, counted in `tally`.
    private static func operate(
        client: Int, call: Int, service: String, environment: [String: String], tally: ConcurrentClients.Tally
    ) {
        let key = ConcurrentClients.keys[Int.random(in: 0..<ConcurrentClients.keys.count)]
        let action = actions[Int.random(in: 0..<actions.count)]
        let clock = ContinuousClock()
        var start = clock.now
        do {
            let keyring = try Keyring(service: service, store: ConcurrentClients.makeStore(environment: environment))
            let connecting = clock.now - start
            if connecting > ConcurrentClients.hangBound {
                tally.fail("connect hang", "connecting took \(connecting)", took: connecting)
            }
            start = clock.now
            let outcome = try perform(action, key: key, client: client, call: call, keyring: keyring, tally: tally)
            let duration = clock.now - start
            if duration > ConcurrentClients.hangBound {
                tally.fail("\(action) hang", "\(action) \(key) took \(duration)", took: duration)
            } else if let problem = outcome.problem {
                tally.fail("\(action) \(outcome.kind)", "\(action) \(key): \(problem)", took: duration)
            } else {
                tally.count("\(action) \(outcome.kind)", took: duration)
            }
        } catch {
            let duration = clock.now - start
            let (kind, isFailure) = ConcurrentClients.classify(error)
            if isFailure || duration > ConcurrentClients.hangBound {
                tally.fail("\(action) error \(kind)", "\(action) \(key) after \(duration): \(error)", took: duration)
            } else {
                // A write or removal that met its bound may have left its clean-up undone: checked after the run.
                if action == "set" || action == "remove" { tally.cutShort(key) }
                tally.count("\(action) error \(kind)", took: duration, succeeded: false)
            }
        }
    }

    /// Makes the call; the outcome's kind, and a problem when what came back cannot be right.
    private static func perform(
        _ action: String, key: String, client: Int, call: Int, keyring: Keyring, tally: ConcurrentClients.Tally
    ) throws -> (kind: String, problem: String?) {
        switch action {
        case "set":
            let password = "pw-\(client)-\(call)"
            tally.wrote(password)
            try keyring.set(
                try Credentials(username: "user-\(client)", password: password, url: ConcurrentClients.url), forKey: key)
            return ("ok", nil)
        case "credentials":
            guard let credentials = try keyring.credentials(forKey: key) else { return ("none", nil) }
            // Each writer pairs its username with its own passwords, so a mix of two writers shows.
            let writer = credentials.username.dropFirst("user-".count)
            guard credentials.password.hasPrefix("pw-\(writer)-"), tally.written.contains(credentials.password) else {
                return ("found", "a torn record or a password no client wrote (username \(credentials.username))")
            }
            return ("found", nil)
        case "password":
            guard let password = try keyring.password(forKey: key) else { return ("none", nil) }
            return ("found", tally.written.contains(password) ? nil : "a password no client wrote")
        case "remove":
            return (try keyring.remove(forKey: key) ? "removed" : "absent", nil)
        default:
            let listed = try keyring.list().map(\.key)
            let foreign = listed.filter { !ConcurrentClients.keys.contains($0) }
            return ("ok", foreign.isEmpty ? nil : "listed keys no client wrote: \(foreign)")
        }
    }
}

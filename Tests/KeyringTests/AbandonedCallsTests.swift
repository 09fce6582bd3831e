import Foundation
import KeyringTestSupport
import Synchronization
import Testing

@testable import SwiftKeyring

/// A client that gives up on a stopped or slow daemon (its bound reached, its task cancelled,
/// its process ending) must not take the daemon down with it.
///
/// gnome-keyring aborts when it handles an `OpenSession` whose sender has left the bus, and the
/// bus's next daemon starts with the login keyring locked. So a connection closed with calls
/// the daemon has not answered stays on the bus, held by a child process, until well after it
/// has (`ConnectionKeeper`). What a user would notice is the daemon gone; what shows the
/// keeping is each connection's unique name, still owned after this process closed it.
@Suite("Calls given up on")
struct AbandonedCallsTests {
    @Test(
        "Twenty connections give up on an OpenSession to a stopped gnome-keyring and are closed: each stays on the bus, and the same daemon answers after"
    )
    func openSessionsGivenUp() throws {
        let sandbox = try SecretServiceSandbox(.busAndDaemon)
        defer { sandbox.stop() }
        let address = try #require(sandbox.environment["DBUS_SESSION_BUS_ADDRESS"])
        let observer = try BusConnection(address: address, deadline: Deadline(.seconds(10)))
        let daemon = try observer.startedOwner(SecretServiceNames.busName, deadline: Deadline(.seconds(10)))

        sandbox.freezeDaemon()
        // At once, as programs started together do: twenty threads from one barrier. Each
        // connection's first call to the daemon is its OpenSession, with no greeting before it.
        let outcomes = Mutex<[(name: String, outcome: String)]>([])
        let reached = AtOnce.threads(20) { _ in
            var name = ""
            let outcome: String
            do {
                // A connection of its own, closed when this turn ends.
                let bus = try BusConnection(address: address, deadline: Deadline(.seconds(10)))
                name = bus.uniqueName
                let opening = try ServiceInterface(bus: bus, daemon: daemon).openSession(
                    "plain", deadline: Deadline(.seconds(10))
                ) { $0.variant("s") { $0.string("") } }
                _ = try opening.value(asked: "open a session", deadline: Deadline(.milliseconds(500)))
                outcome = "answered"
            } catch let error as KeyringError where error.code == .timedOut {
                outcome = "timedOut"
            } catch {
                outcome = "\(error)"
            }
            outcomes.withLock { $0.append((name, outcome)) }
        }
        print("Calls given up on: \(reached) of 20 threads started together")
        let given = outcomes.withLock { $0 }
        // Closed here, still owned on the bus: the daemon, when it reads their calls, finds them there.
        let gone = try given.filter { try observer.nameOwner($0.name, deadline: Deadline(.seconds(10))) == nil }
        sandbox.thawDaemon()

        #expect(reached == 20, "only \(reached) of 20 threads reached the barrier")
        #expect(given.map(\.outcome) == Array(repeating: "timedOut", count: 20), "the stopped daemon answered")
        #expect(gone.isEmpty, "\(gone.count) of 20 connections left the bus with their OpenSession unanswered")
        // Its answer comes after the twenty it had queued: by then it handled each of them.
        let store = try SecretServiceStore(timeout: .seconds(60), environment: sandbox.environment)
        #expect(try store.isLocked() == false)
        #expect(sandbox.daemonIsRunning, "gnome-keyring died handling the calls given up on")
        let now = try observer.nameOwner(SecretServiceNames.busName, deadline: Deadline(.seconds(10)))
        #expect(now == daemon, "org.freedesktop.secrets was \(daemon), and is \(now ?? "nobody's") after")
    }
}

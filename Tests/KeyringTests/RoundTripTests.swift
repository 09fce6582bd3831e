import Foundation
import KeyringCrypto
import Synchronization
import Testing

@testable import SwiftKeyring

/// How many round trips a whole `swift-keyring get` waits for on the bus, what it sends
/// before the daemon answered anything, and whose replies its first flight takes, played by
/// a bus of the test's own (`HostileBus`) that is also the daemon `:1.7`, with a real key
/// exchange, so the tool prints the password.
@Suite("A get in three round trips, the greeting answered before any other call")
struct RoundTripTests {
    private static var tool: String {
        TestWorker.executable.deletingLastPathComponent().appendingPathComponent("swift-keyring").path
    }

    static let daemon = ":1.7"
    static let item = "/org/freedesktop/secrets/collection/login/1"
    static let forgedItem = "/org/freedesktop/secrets/collection/login/2"
    static let password = "correct horse"
    static let forgedPassword = "forged battery"

    /// gnome-keyring aborts when an `OpenSession` among a new connection's first messages runs
    /// before its record of the caller exists (`HeldOpening`): the first flight carries the
    /// greeting alone to the daemon, and the session and search wait for its answer.
    @Test(
        "Hello, owner, greeting (NO_AUTO_START) in one flight; OpenSession and SearchItems in the next; the read in the third: with the store named, and under auto (the probe's flight, no Ping)",
        arguments: ["secret-service", "auto"])
    func threeFlights(backend: String) throws {
        let daemon = PlayedDaemon()
        let bus = try HostileBus { call, connection in daemon.answer(call, connection) }
        var environment = bus.environment(home: bus.folder)
        environment["SWIFT_KEYRING_BACKEND"] = backend
        let run = try MeasuredChild.run([Self.tool, "get", "work"], environment: environment)
        #expect(run.status == 0, "get failed: \(run.standardError)")
        #expect(run.standardOutput.contains(Self.password), "get did not print the stored password")
        let calls = bus.calls.withLock { $0 }
        #expect(!calls.contains { $0.member == "Ping" }, "a Ping was sent: \(Self.flights(calls))")
        let first = calls.filter { $0.flight == 1 }.map(\.member)
        for member in ["Hello", "GetNameOwner", "Get"] {
            #expect(first.contains(member), "\(member) was not in the first flight: \(Self.flights(calls))")
        }
        for member in ["OpenSession", "SearchItems"] {
            #expect(!first.contains(member), "\(member) went before the greeting's answer: \(Self.flights(calls))")
        }
        let second = calls.filter { $0.flight == 2 }.map(\.member)
        #expect(second.sorted() == ["OpenSession", "SearchItems"], "the second flight: \(Self.flights(calls))")
        let third = calls.filter { $0.flight == 3 }.map(\.member)
        #expect(third.sorted() == ["Get", "GetSecrets"], "the third flight: \(Self.flights(calls))")
        #expect(calls.allSatisfy { $0.flight <= 3 }, "more than three flights: \(Self.flights(calls))")
        // The greeting, sent before the bus named the owner, goes to the well-known name: it may not start a service.
        for call in calls where call.flight == 1 && call.member == "Get" {
            #expect(call.noAutoStart, "the greeting lacks NO_AUTO_START")
        }
    }

    @Test(
        "A first-flight reply from anyone but the owner GetNameOwner named, before that answer or after, is dropped: with the store named, and under auto",
        arguments: ["secret-service", "auto"])
    func othersRepliesDropped(backend: String) throws {
        let daemon = PlayedDaemon(forging: true)
        let bus = try HostileBus { call, connection in daemon.answer(call, connection) }
        var environment = bus.environment(home: bus.folder)
        environment["SWIFT_KEYRING_BACKEND"] = backend
        let run = try MeasuredChild.run([Self.tool, "get", "work"], environment: environment)
        #expect(run.status == 0, "get failed: \(run.standardError)")
        #expect(run.standardOutput.contains(Self.password), "get did not print the stored password")
        #expect(!run.standardOutput.contains(Self.forgedPassword), "get printed the forged item's password")
        let read = bus.calls.withLock { $0 }.filter { $0.member == "GetSecrets" }
        #expect(
            read.count == 1 && daemon.readForged.load(ordering: .sequentiallyConsistent) == false,
            "the client read the item a forged SearchItems named")
    }

    @Test("An owner change between GetNameOwner's answer and the greeting's is an error naming it, not a wait")
    func ownerChangeIsAnError() throws {
        let bus = try HostileBus { call, connection in
            switch call.member {
            case "GetNameOwner" where call.argument == SecretServiceNames.busName:
                connection.send(HostileBus.reply(to: call.serial, signature: "s") { $0.string(Self.daemon) })
            case "Get", "OpenSession", "SearchItems":
                // The name passed to :1.8 after the bus answered :1.7; :1.8 answers what was sent to the name.
                if call.member == "Get" {
                    connection.send(
                        HostileBus.message(
                            kind: 4, sender: BusConnection.busName, path: BusConnection.busPath,
                            interface: BusConnection.busName, member: "NameOwnerChanged", signature: "sss"
                        ) {
                            $0.string(SecretServiceNames.busName)
                            $0.string(Self.daemon)
                            $0.string(":1.8")
                        })
                }
                connection.send(
                    HostileBus.reply(to: call.serial, from: ":1.8", signature: "v") { $0.variant("ao") { $0.strings([]) } })
            default:
                return false
            }
            return true
        }
        let run = try MeasuredChild.run([Self.tool, "get", "work"], environment: bus.environment(home: bus.folder))
        #expect(run.status != 0, "get succeeded though the daemon changed")
        #expect(run.standardError.contains("changed owner"), "the error does not name the change: \(run.standardError)")
    }

    private static func flights(_ calls: [HostileBus.Call]) -> String {
        calls.map { "\($0.flight):\($0.member)" }.joined(separator: " ")
    }
}

/// The daemon `:1.7` as the bus plays it: the owner's answer, the greeting, a real key
/// exchange, one item whose secret is `RoundTripTests.password`. With `forging`, the greeting's
/// reply is also sent forged first, by `:1.5` and by `:1.7` itself before the bus names the
/// owner, and so are search replies (naming another item, whose secret is the forged password)
/// to the serials the next flight's calls will have: a reply to a call not yet sent must be
/// dropped, never kept for it. The search is answered by `:1.5` first too.
final class PlayedDaemon: Sendable {
    let forging: Bool
    private let key = Mutex<SecureBytes?>(nil)
    let readForged = Atomic<Bool>(false)

    init(forging: Bool = false) { self.forging = forging }

    func answer(_ call: HostileBus.Call, _ connection: HostileBus.Connection) -> Bool {
        let daemon = RoundTripTests.daemon
        switch call.member {
        case "GetNameOwner" where call.argument == SecretServiceNames.busName:
            if forging {
                // The next call is the greeting; SearchItems and OpenSession follow once it is answered.
                for sender in [":1.5", daemon] {
                    connection.send(greeting(call.serial + 1, from: sender))
                    connection.send(search(call.serial + 2, from: sender, RoundTripTests.forgedItem))
                    connection.send(search(call.serial + 3, from: sender, RoundTripTests.forgedItem))
                }
            }
            connection.send(HostileBus.reply(to: call.serial, signature: "s") { $0.string(daemon) })
        case "Get" where call.path == SecretServiceNames.servicePath:
            if forging { connection.send(greeting(call.serial, from: ":1.5")) }
            connection.send(greeting(call.serial, from: daemon))
        case "OpenSession":
            guard let reply = openSession(call) else { return false }
            connection.send(reply)
        case "SearchItems":
            var cursor = WireCursor(call.body, from: 0, to: call.body.count, littleEndian: call.littleEndian)
            let attributes = try? SecretReplies.stringTable(&cursor)
            searched.withLock { $0 = attributes }
            if forging { connection.send(search(call.serial, from: ":1.5", RoundTripTests.forgedItem)) }
            connection.send(search(call.serial, from: daemon, RoundTripTests.item))
        case "Get":
            // An item's attributes: those the search asked for, so the item is the record asked.
            guard let attributes = searched.withLock({ $0 }) else { return false }
            connection.send(
                HostileBus.reply(to: call.serial, from: daemon, signature: "v") {
                    $0.variant("a{ss}") { $0.stringTable(attributes) }
                })
        case "GetSecrets":
            guard let reply = secrets(call) else { return false }
            connection.send(reply)
        default:
            return false
        }
        return true
    }

    /// The attributes the client searched for.
    private let searched = Mutex<[String: String]?>(nil)

    private func greeting(_ serial: UInt32, from sender: String) -> [UInt8] {
        HostileBus.reply(to: serial, from: sender, signature: "v") {
            $0.variant("ao") { $0.strings(["/org/freedesktop/secrets/collection/login"]) }
        }
    }

    private func search(_ serial: UInt32, from sender: String, _ item: String) -> [UInt8] {
        HostileBus.reply(to: serial, from: sender, signature: "aoao") {
            $0.strings([item])
            $0.strings([])
        }
    }

    /// The client's `OpenSession(dh-ietf1024-sha256-aes128-cbc-pkcs7, v(ay))` answered with a
    /// public value of ours whose agreed key both sides compute alike.
    private func openSession(_ call: HostileBus.Call) -> [UInt8]? {
        var cursor = WireCursor(call.body, from: 0, to: call.body.count, littleEndian: call.littleEndian)
        guard (try? cursor.string()) != nil,
            let peer = try? cursor.variant({ value, _ in try value.bytes() })
        else { return nil }
        for _ in 0..<16 {
            guard let agreement = try? DHKeyAgreement(),
                let agreed = try? peer.withUnsafeBytes({ try agreement.key(peer: $0) })
            else { continue }
            key.withLock { $0 = agreed }
            return HostileBus.reply(to: call.serial, from: RoundTripTests.daemon, signature: "vo") {
                $0.variant("ay") { $0.byteArray(agreement.publicValue) }
                $0.string("/org/freedesktop/secrets/session/1")
            }
        }
        return nil
    }

    /// `GetSecrets(ao, o)`: the item's secret, sealed with the agreed key.
    private func secrets(_ call: HostileBus.Call) -> [UInt8]? {
        var cursor = WireCursor(call.body, from: 0, to: call.body.count, littleEndian: call.littleEndian)
        guard let paths = try? cursor.array(alignment: 4, { try $0.objectPath() }), let path = paths.first,
            let session = try? cursor.objectPath()
        else { return nil }
        if path == RoundTripTests.forgedItem { readForged.store(true, ordering: .sequentiallyConsistent) }
        let secret = Array((path == RoundTripTests.item ? RoundTripTests.password : RoundTripTests.forgedPassword).utf8)
        guard
            let sealed: (iv: [UInt8], ciphertext: [UInt8]) = key.withLock({ key in
                guard let key, let cipher = try? AESCBC(key: key) else { return nil }
                return try? secret.withUnsafeBytes { try cipher.seal($0) }
            })
        else { return nil }
        return HostileBus.reply(to: call.serial, from: RoundTripTests.daemon, signature: "a{o(oayays)}") {
            $0.array(elementAlignment: 8) { entries in
                entries.fields { entry in
                    entry.string(path)
                    entry.fields {
                        $0.string(session)
                        $0.byteArray(sealed.iv)
                        $0.byteArray(sealed.ciphertext)
                        $0.string("text/plain")
                    }
                }
            }
        }
    }
}

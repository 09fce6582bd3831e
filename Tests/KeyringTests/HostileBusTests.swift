import Foundation
import Glibc
import Synchronization
import Testing

@testable import SwiftKeyring

/// What a session bus (or another program on it) can send the client, played by a bus of
/// the test's own (`HostileBus`): no answer ends the process, grows it past a small multiple
/// of the message cap, closes a descriptor of someone else's, or stretches a deadline (issue 43).
/// The deadline test forces a socket's send buffer (`SO_SNDBUFFORCE`): root, as the suite runs.
@Suite("A hostile session bus")
struct HostileBusTests {
    /// The tool, built beside the test bundle.
    private static var tool: String {
        TestWorker.executable.deletingLastPathComponent().appendingPathComponent("swift-keyring").path
    }

    /// What the bus answers `GetNameOwner(org.freedesktop.secrets)` with.
    enum OwnerAnswer: String, CaseIterable, Sendable {
        case empty, wellKnownName, flippedFirstByte, wrongType
    }

    @Test(
        "No answer to GetNameOwner ends the tool by a signal: get fails naming what the bus answered",
        arguments: OwnerAnswer.allCases)
    func ownerAnswersNeverTrap(_ answer: OwnerAnswer) throws {
        let bus = try HostileBus { call, connection in
            guard call.member == "GetNameOwner" else { return false }
            let reply: [UInt8]
            switch answer {
            case .empty: reply = HostileBus.reply(to: call.serial, signature: "s") { $0.string("") }
            case .wellKnownName:
                reply = HostileBus.reply(to: call.serial, signature: "s") { $0.string(SecretServiceNames.busName) }
            // ':' with its lowest bit flipped is ';'.
            case .flippedFirstByte: reply = HostileBus.reply(to: call.serial, signature: "s") { $0.string(";1.7") }
            case .wrongType: reply = HostileBus.reply(to: call.serial, signature: "u") { $0.uint32(7) }
            }
            connection.send(reply)
            return true
        }
        for command in [["get", "work"], ["doctor"]] {
            let run = try MeasuredChild.run([Self.tool] + command, environment: bus.environment(home: bus.folder))
            #expect(run.signal == nil, "\(command): ended by signal \(run.signal ?? 0)")
            if command[0] == "get" {
                #expect(run.status != 0, "get succeeded on a bus that named no owner")
                let named = answer == .wrongType ? "(u)" : "GetNameOwner"
                #expect(run.standardError.contains(named), "get's error does not name the answer: \(run.standardError)")
            }
        }
    }

    /// Which messages of 17 MiB (just under the cap) the bus sends.
    enum Flood: String, CaseIterable, Sendable {
        /// A signal nobody asked for, a reply to `Hello` from another connection, a reply to
        /// `GetNameOwner` from another connection, then the bus's own answer of another type.
        case unsolicitedThenWrongType
        /// The daemon's answers to the pipelined `OpenSession` and `SearchItems`, both 17 MiB.
        case pipelinedReplies
    }

    @Test(
        "Peak memory of get stays under 64 MiB while 17 MiB messages arrive",
        arguments: [Flood.unsolicitedThenWrongType], ["an", "av", "ag"])
    func floodsStayBounded(_ flood: Flood, _ signature: String) throws {
        try Self.flood(flood, signature)
    }

    @Test("Peak memory of get stays under 64 MiB when both pipelined replies are 17 MiB")
    func pipelinedFloodStaysBounded() throws {
        try Self.flood(.pipelinedReplies, "ag")
    }

    private static func flood(_ flood: Flood, _ signature: String) throws {
        let body = HostileBus.hugeBody(signature, bytes: BusConnection.maximumMessage - 4096)
        let daemon = ":1.7"
        let bus = try HostileBus { call, connection in
            switch (flood, call.member) {
            case (.unsolicitedThenWrongType, "Hello"):
                connection.send(
                    HostileBus.message(
                        kind: 4, sender: ":1.5", path: "/flood", interface: "org.example.Flood", member: "Flood",
                        signature: signature, body: body))
                connection.send(
                    HostileBus.message(kind: 2, replySerial: call.serial, sender: ":1.5", signature: signature, body: body))
                return true
            case (.unsolicitedThenWrongType, "GetNameOwner"):
                connection.send(
                    HostileBus.message(kind: 2, replySerial: call.serial, sender: ":1.5", signature: signature, body: body))
                connection.send(
                    HostileBus.message(
                        kind: 2, replySerial: call.serial, sender: BusConnection.busName, signature: signature, body: body))
                return true
            case (.pipelinedReplies, "GetNameOwner"):
                connection.send(HostileBus.reply(to: call.serial, signature: "s") { $0.string(daemon) })
                return true
            case (.pipelinedReplies, "Get") where call.path == SecretServiceNames.servicePath:
                // The greeting: no collections.
                connection.send(
                    HostileBus.reply(to: call.serial, from: daemon, signature: "v") { $0.variant("ao") { $0.strings([]) } })
                return true
            case (.pipelinedReplies, "OpenSession"), (.pipelinedReplies, "SearchItems"):
                connection.send(
                    HostileBus.message(kind: 2, replySerial: call.serial, sender: daemon, signature: signature, body: body))
                return true
            default:
                return false
            }
        }
        let run = try MeasuredChild.run([Self.tool, "get", "work"], environment: bus.environment(home: bus.folder))
        #expect(run.signal == nil, "ended by signal \(run.signal ?? 0)")
        #expect(run.status != 0, "get succeeded on answers of the wrong type")
        #expect(run.standardError.contains("(\(signature))"), "the error does not name the type: \(run.standardError)")
        #expect(run.peakKiB < 64 * 1024, "peak memory \(run.peakKiB) KiB")
    }

    @Test("Descriptors are taken only from a read that succeeded: a reset after them closes none of ours")
    func descriptorsClosedOnce() throws {
        let reset = DispatchSemaphore(value: 0)
        let bus = try HostileBus { call, connection in
            guard call.member == "GetNameOwner", call.argument == "org.example.First" else { return false }
            // A signal carrying a descriptor, then the answer: the client has read both once the answer is in.
            var pipe: [Int32] = [-1, -1]
            guard Glibc.pipe(&pipe) == 0 else { return false }
            connection.send(
                HostileBus.message(
                    kind: 4, sender: ":1.5", path: "/descriptor", interface: "org.example.Descriptor", member: "Passed",
                    signature: "h", descriptors: 1
                ) { $0.uint32(0) }, descriptors: [pipe[0]])
            close(pipe[0])
            close(pipe[1])
            connection.send(HostileBus.reply(to: call.serial, signature: "s") { $0.string(":1.5") })
            // Nothing more is read: the test's next call stays unread, so the close resets the connection.
            _ = reset.wait(timeout: .now() + 30)
            connection.close()
            return true
        }
        let connection = try BusConnection(address: bus.address(), deadline: Deadline(.seconds(10)))
        #expect(try connection.nameOwner("org.example.First", deadline: Deadline(.seconds(10))) == ":1.5")

        // Descriptors of ours, on the lowest free numbers: the one the client closed is among them.
        var ours: [Int32] = []
        for _ in 0..<64 { ours.append(open("/dev/null", O_RDONLY | O_CLOEXEC)) }
        defer { ours.forEach { _ = close($0) } }
        let serial = try connection.send(
            destination: BusConnection.busName, path: BusConnection.busPath, interface: BusConnection.busName,
            member: "GetNameOwner", signature: "s", reply: "s", deadline: Deadline(.seconds(10))
        ) { $0.string("org.example.Second") }
        reset.signal()
        #expect(throws: KeyringError.self) { _ = try connection.reply(to: serial, "wait", deadline: Deadline(.seconds(10))) }
        let closed = ours.filter { fcntl($0, F_GETFD) == -1 }
        #expect(closed.isEmpty, "descriptors of ours closed by the client: \(closed)")
    }

    @Test("A wait ends at its deadline while a frame's bytes keep coming, leaving the rest unread")
    func deadlineHeldWhileBytesKeepComing() throws {
        let queued = DispatchSemaphore(value: 0)
        let fake = Mutex<HostileBus.Connection?>(nil)
        let bus = try HostileBus { call, connection in
            guard call.member == "GetNameOwner" else { return false }
            // A 16 MiB reply queued whole at once (room for it forced: root), so that every read of
            // the client finds bytes waiting until the frame ends.
            var room: Int32 = 64 << 20
            setsockopt(connection.descriptor, SOL_SOCKET, SO_SNDBUFFORCE, &room, socklen_t(MemoryLayout<Int32>.size))
            fake.withLock { $0 = connection }
            connection.send(
                HostileBus.reply(to: call.serial, signature: "s") { $0.string(String(repeating: "a", count: 16 << 20)) })
            queued.signal()
            return true
        }
        let connection = try BusConnection(address: bus.address(), deadline: Deadline(.seconds(10)))
        let serial = try connection.send(
            destination: BusConnection.busName, path: BusConnection.busPath, interface: BusConnection.busName,
            member: "GetNameOwner", signature: "s", reply: "s", decode: BasicReplies.string, deadline: Deadline(.seconds(10))
        ) { $0.string("org.example.Slow") }
        try #require(queued.wait(timeout: .now() + 30) == .success, "the bus did not queue its reply")
        // A deadline far shorter than reading 16 MiB takes: a reader that looks at it on every
        // read stops with most of the frame unread; one that reads while bytes wait takes it all.
        #expect {
            _ = try connection.reply(to: serial, "wait for 16 MiB", deadline: Deadline(.milliseconds(2)))
        } throws: { error in
            (error as? KeyringError)?.code == .timedOut
        }
        let unread = fake.withLock { $0?.unread() ?? 0 }
        #expect(unread > 0, "the client read the whole frame past its deadline")
    }

    @Test("A path that is no object path is an error naming the reply, at once, never a path called or quoted")
    func badPathIsAnError() throws {
        let bus = try HostileBus { call, connection in
            guard call.member == "ReadAlias" else { return false }
            // A quote would end a match rule's value: `o` is checked where it is read.
            connection.send(HostileBus.reply(to: call.serial, signature: "o") { $0.string("/a'b") })
            return true
        }
        let connection = try BusConnection(address: bus.address(), deadline: Deadline(.seconds(10)))
        #expect {
            let service = BusObject(bus: connection, destination: BusConnection.busName, path: "/org/freedesktop/secrets")
            _ = try service.send(
                SecretServiceNames.service, "ReadAlias", signature: "s", reply: "o", deadline: Deadline(.seconds(30)),
                decode: BasicReplies.path
            ) { $0.string("default") }.value(asked: "read an alias", deadline: Deadline(.seconds(30)))
        } throws: { error in
            String(describing: error).contains(BusFailure.invalidReplyDomain) && (error as? KeyringError)?.code != .timedOut
        }
    }

    @Test("An OK without the guid the address names, or with another, is refused; the same guid is taken")
    func guidChecked() throws {
        for (okGuid, accepted) in [(nil, false), ("fedcba9876543210fedcba9876543210", false), (HostileBus.guid, true)] {
            let bus = try HostileBus(guid: okGuid) { _, _ in false }
            let address = bus.address(guid: HostileBus.guid)
            if accepted {
                #expect(throws: Never.self) { _ = try BusConnection(address: address, deadline: Deadline(.seconds(10))) }
            } else {
                #expect("OK \(okGuid ?? "without a guid")") {
                    _ = try BusConnection(address: address, deadline: Deadline(.seconds(10)))
                } throws: { error in
                    String(describing: error).contains("guid")
                }
            }
        }
    }
}

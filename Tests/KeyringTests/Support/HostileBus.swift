import Foundation
import Glibc
import Synchronization

@testable import SwiftKeyring

/// A session bus of the test's own on a socket, which plays the bus (and any daemon on it)
/// and sends whatever a test's script says: answers that are no names, 17 MiB messages,
/// descriptors followed by a reset, a frame trickled a few bytes at a time. It speaks just
/// enough D-Bus for a client to get there: the `EXTERNAL` exchange, `Hello`, and an
/// `UnknownMethod` error from the bus for every call the script leaves alone.
final class HostileBus: @unchecked Sendable {
    /// A call the client made.
    struct Call: Sendable {
        let serial: UInt32
        let member: String
        let path: String
        /// The first argument, when it is a string.
        let argument: String?
        /// The header's flags byte: NO_AUTO_START is 2.
        var flags: UInt8 = 0
        /// Which flight it came in: 1 for what the client wrote before the bus answered
        /// anything, one more for each read that follows an answer of the bus's.
        var flight = 0
        /// The body's bytes, and whether they are little-endian.
        var body: [UInt8] = []
        var littleEndian = true

        /// Whether the header carries NO_AUTO_START.
        var noAutoStart: Bool { flags & 2 != 0 }
    }

    /// One accepted connection: what the script writes to.
    final class Connection: @unchecked Sendable {
        let descriptor: Int32
        private let closed = Atomic<Bool>(false)
        /// How many writes the bus made to it: a read after one starts a new flight.
        let writes = Atomic<Int>(0)

        init(descriptor: Int32) { self.descriptor = descriptor }

        /// Whether `close` was called: its number is no longer this connection's.
        var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }

        /// Closes the connection, once; with bytes of the client's unread, the client's next read fails (a reset).
        func close() {
            guard !closed.exchange(true, ordering: .sequentiallyConsistent) else { return }
            Glibc.close(descriptor)
        }

        /// Writes `bytes` whole (the descriptors with their first byte); `false` once the client is gone.
        @discardableResult
        func send(_ bytes: [UInt8], descriptors: [Int32] = []) -> Bool {
            writes.add(1, ordering: .sequentiallyConsistent)
            return DescriptorPassing.withControl(descriptors) { control in
                var sent = 0
                while sent < bytes.count {
                    let count = DescriptorPassing.send(descriptor, bytes, from: sent, control: control)
                    if count < 0 && errno == EINTR { continue }
                    guard count > 0 else { return false }
                    sent += count
                }
                return true
            }
        }

        /// How many bytes written the client has not read yet (`SIOCOUTQ`; 0 once closed).
        func unread() -> Int32 {
            var count: Int32 = 0
            guard !isClosed, ioctl(descriptor, UInt(0x5411), &count) == 0 else { return 0 }
            return count
        }

        /// Writes `bytes` `piece` bytes at a time, one write each, with no pause; `false` once the client is gone.
        @discardableResult
        func trickle(_ bytes: [UInt8], piece: Int) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let end = min(offset + piece, bytes.count)
                guard send(Array(bytes[offset..<end])) else { return false }
                offset = end
            }
            return true
        }
    }

    /// The bus's answer to `Hello`: the client's unique name.
    static let clientName = ":1.99"
    /// The guid the bus's `OK` gives, unless a test says otherwise.
    static let guid = "0123456789abcdef0123456789abcdef"

    let folder: String
    /// The socket's path.
    let socket: String
    private let listener: Int32
    private let okLine: String
    /// Answers a call the way the test wants; `false` leaves it to the bus's default answer.
    private let script: @Sendable (Call, Connection) -> Bool
    /// Every call every client made, in the order they came.
    let calls = Mutex<[Call]>([])

    /// A bus at a new socket; its `OK` names `guid` (none when `nil`).
    init(guid: String? = HostileBus.guid, script: @escaping @Sendable (Call, Connection) -> Bool) throws {
        folder = "/tmp/swift-keyring-hostile-bus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        chmod(folder, 0o700)
        socket = folder + "/bus"
        okLine = guid.map { "OK \($0)\r\n" } ?? "OK\r\n"
        self.script = script
        let listening = try Self.listeningSocket(at: folder + "/bus")
        listener = listening
        Thread.detachNewThread { [self] in
            while true {
                let accepted = accept(listening, nil, nil)
                if accepted < 0 {
                    if errno == EINTR { continue }
                    return
                }
                Thread.detachNewThread { self.serve(Connection(descriptor: accepted)) }
            }
        }
    }

    /// A Unix stream socket listening at `path` (a new file).
    /// - Throws: `POSIXError` when it cannot be bound or listen.
    static func listeningSocket(at path: String) throws -> Int32 {
        let listening = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var name = sockaddr_un()
        name.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &name.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listening, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listening, 16) == 0 else {
            close(listening)
            throw POSIXError(.EADDRINUSE)
        }
        return listening
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The address a client connects to; with `guid`, the address names that server.
    func address(guid: String? = nil) -> String {
        "unix:path=\(socket)" + (guid.map { ",guid=\($0)" } ?? "")
    }

    /// An environment for a child `swift-keyring` that finds only this bus, and no file store to fall back on.
    func environment(home: String) -> [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home, "XDG_RUNTIME_DIR": folder, "DBUS_SESSION_BUS_ADDRESS": address(),
            "SWIFT_KEYRING_BACKEND": "secret-service",
        ]
    }

    private func serve(_ connection: Connection) {
        defer { connection.close() }
        var buffer: [UInt8] = []
        var flight = Flight()
        // The authentication lines, up to BEGIN.
        while true {
            guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else {
                guard read(connection, into: &buffer, flight: &flight) else { return }
                continue
            }
            let line = String(decoding: buffer[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            buffer.removeFirst(newline + 1)
            if line.hasPrefix("\u{0}") || line.hasPrefix("AUTH") {
                connection.send(Array(okLine.utf8))
            } else if line.hasPrefix("NEGOTIATE_UNIX_FD") {
                connection.send(Array("AGREE_UNIX_FD\r\n".utf8))
            } else if line.hasPrefix("BEGIN") {
                break
            }
        }
        // Messages, each answered by the script or as the bus answers what it does not know.
        while true {
            guard let lengths = try? WireFrame.lengths(in: buffer, maximum: Int(Int32.max)),
                buffer.count >= lengths.total
            else {
                guard read(connection, into: &buffer, flight: &flight) else { return }
                continue
            }
            let bytes = Array(buffer[0..<lengths.total])
            buffer.removeFirst(lengths.total)
            guard let header = try? WireFrame.header(in: bytes, lengths: lengths), header.message.kind == .methodCall
            else { continue }
            let message = header.message
            let call = Call(
                serial: message.serial, member: message.member ?? "", path: message.path ?? "",
                argument: WireFrame.errorMessage(of: header, in: bytes), flags: bytes[2],
                flight: flight.number, body: Array(bytes[lengths.bodyStart...]), littleEndian: bytes[0] == UInt8(ascii: "l"))
            calls.withLock { $0.append(call) }
            if call.member == "Hello" {
                connection.send(Self.reply(to: call.serial, signature: "s") { $0.string(Self.clientName) })
                // The script may go on after the bus's answer (floods, descriptors).
                _ = script(call, connection)
                continue
            }
            if script(call, connection) { continue }
            connection.send(
                Self.error(to: call.serial, name: "org.freedesktop.DBus.Error.UnknownMethod", message: "not here"))
        }
    }

    /// Which flight the bytes read last came in.
    private struct Flight {
        var number = 0
        /// The connection's write count when the flight began; -1 before any read.
        var writesAtStart = -1
    }

    /// Appends what the socket has; `false` at its end. A read that follows a write of the
    /// bus's begins a new flight: what the client wrote before it saw any answer is one flight.
    private func read(_ connection: Connection, into buffer: inout [UInt8], flight: inout Flight) -> Bool {
        guard !connection.isClosed else { return false }
        let descriptor = connection.descriptor
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        let writes = connection.writes.load(ordering: .sequentiallyConsistent)
        if writes != flight.writesAtStart {
            flight.number += 1
            flight.writesAtStart = writes
        }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }

    // MARK: Messages

    /// A message of `kind` with the given header fields and a body `body` writes, little-endian.
    static func message(
        kind: UInt8, serial: UInt32 = 7, replySerial: UInt32? = nil, sender: String, path: String? = nil,
        interface: String? = nil, member: String? = nil, errorName: String? = nil, signature: String,
        descriptors: Int = 0, body write: (inout WireWriter) -> Void
    ) -> [UInt8] {
        var body = WireWriter()
        write(&body)
        return message(
            kind: kind, serial: serial, replySerial: replySerial, sender: sender, path: path, interface: interface,
            member: member, errorName: errorName, signature: signature, descriptors: descriptors, body: body.bytes)
    }

    /// As above, with the body's bytes given; addressed to the client, flagged NO_REPLY_EXPECTED.
    static func message(
        kind: UInt8, serial: UInt32 = 7, replySerial: UInt32? = nil, sender: String, path: String? = nil,
        interface: String? = nil, member: String? = nil, errorName: String? = nil, signature: String,
        descriptors: Int = 0, body: [UInt8]
    ) -> [UInt8] {
        var header = BusMessage(kind: BusMessage.Kind(rawValue: kind)!, serial: serial)
        header.replySerial = replySerial
        header.sender = sender
        header.path = path
        header.interface = interface
        header.member = member
        header.errorName = errorName
        header.signature = signature
        header.descriptors = descriptors
        return TestFrame.write(header, destination: clientName, flags: 1, body: body)
    }

    /// A method return to `serial` from `sender` (the bus unless said).
    static func reply(
        to serial: UInt32, from sender: String = BusConnection.busName, signature: String,
        body: (inout WireWriter) -> Void
    ) -> [UInt8] {
        message(kind: 2, replySerial: serial, sender: sender, signature: signature, body: body)
    }

    /// An error answering `serial`, from the bus.
    static func error(to serial: UInt32, name: String, message text: String) -> [UInt8] {
        message(kind: 3, replySerial: serial, sender: BusConnection.busName, errorName: name, signature: "s") {
            $0.string(text)
        }
    }

    /// A body of `signature` (`an`, `av` or `ag`) `bytes` long: one array of the smallest
    /// elements, which a reader that builds values makes into millions of them.
    static func hugeBody(_ signature: String, bytes: Int) -> [UInt8] {
        let element: [UInt8]
        switch signature {
        case "an": element = [0, 0]
        case "av": element = [1, UInt8(ascii: "y"), 0, 0]
        default: element = [0, 0]
        }
        let count = (bytes - 4) / element.count
        var body = [UInt8]()
        body.reserveCapacity(4 + count * element.count)
        withUnsafeBytes(of: UInt32(count * element.count).littleEndian) { body.append(contentsOf: $0) }
        for _ in 0..<count { body.append(contentsOf: element) }
        return body
    }
}

import Glibc

/// A session bus connection of our own on a Unix socket, speaking the D-Bus wire format
/// directly: what `SecretServiceDirectRead` reads on, so that a short process such as
/// `swift-keyring get` never loads libsecret, GIO, GObject and GLib (their `dlopen`
/// alone is most of what such a process spends before its first D-Bus call).
///
/// Only what that read needs: `EXTERNAL` authentication, method calls, and their
/// replies matched by serial **and** sender; signals are skipped. A reply is taken only
/// from the connection the call went to, as the bus names the sender (the bus itself
/// writes that field, so nobody can forge it): calls go to the bus or to a unique name
/// the bus gave, never to a well-known name whoever answers. A reply to a call not
/// outstanding, or from anyone else, is dropped: any program on the bus may send us
/// replies nobody asked for (a stock dbus-daemon lets it), and keeping them for a
/// call made later would hand it their answer. Every wait (authentication, each
/// reply) is bounded by the deadline it was made with, and any failure, a malformed
/// message or one larger than `maximumMessage` gives `Failure`, which the read turns
/// into "ask the store instead".
final class WireConnection {
    /// Whatever went wrong; the direct read gives up, and the store is asked.
    struct Failure: Error {}

    /// A method's answer.
    struct Reply {
        /// The unique name it came from.
        let sender: String?
        /// The D-Bus error name, when the call failed.
        let errorName: String?
        /// Its values, read by the reply's own signature.
        let values: [WireValue]
    }

    /// The largest message read: a secret of the sizes the library stores (a password is at
    /// most 1 MiB) fits many times over; anything larger goes through the store, whose
    /// checks word the error.
    static let maximumMessage = 4 << 20

    /// The bus itself, as a message's sender and a call's destination.
    static let bus = "org.freedesktop.DBus"

    private let descriptor: Int32
    private let deadline: Deadline
    private var serial: UInt32 = 0
    private var buffer: [UInt8] = []
    /// The calls sent and not yet answered: their serial, and the name the reply must come from.
    private var outstanding: [UInt32: String] = [:]
    /// Replies to outstanding calls, read while waiting for another's.
    private var early: [UInt32: Reply] = [:]

    /// Connects to the first `unix:` entry of `address` that accepts, checks that the
    /// peer runs as this user or root, authenticates as this user, and says `Hello`;
    /// `nil` when any of that fails or `deadline` passes.
    init?(address: String, deadline: Deadline) {
        var connected: Int32?
        for entry in address.split(separator: ";") where !entry.isEmpty {
            guard let name = UnixSocketName(entry: String(entry)) else { return nil }
            if let descriptor = name.connected(blocking: false).descriptor {
                connected = descriptor
                break
            }
        }
        guard let connected else { return nil }
        descriptor = connected
        // The bus at the other end is another user's when its process is: a socket file's
        // owner is checked before (SessionBusAddress.checkOwners), an abstract name has none.
        guard let peer = Self.peerUser(connected), peer == geteuid() || peer == 0 else {
            close(connected)
            return nil
        }
        self.deadline = deadline
        do {
            try authenticate()
            let hello = try call(
                destination: Self.bus, path: "/org/freedesktop/DBus", interface: Self.bus,
                member: "Hello")
            guard hello.errorName == nil, hello.values.first?.string != nil else { return nil }
        } catch {
            return nil
        }
    }

    deinit {
        close(descriptor)
    }

    /// The uid the process at the other end of `descriptor` runs as (`SO_PEERCRED`).
    /// Glibc's module hides `struct ucred` (it wants `_GNU_SOURCE`): its three fields,
    /// pid, uid and gid, are 32-bit on Linux, read here as such.
    static func peerUser(_ descriptor: Int32) -> uid_t? {
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            length == socklen_t(MemoryLayout.size(ofValue: credentials))
        else { return nil }
        return credentials.uid
    }

    /// The `EXTERNAL` mechanism with our uid, and `BEGIN`: the bus checks the uid against
    /// the socket's credentials. No file descriptors are negotiated: no reply read carries one.
    private func authenticate() throws {
        let uid = Array(String(getuid()).utf8)
        let hex = uid.map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
        }.joined()
        try write([0] + Array("AUTH EXTERNAL \(hex)\r\n".utf8))
        // The answer is one line, "OK <guid>" when accepted, and the bus says nothing more until BEGIN.
        while !buffer.contains(UInt8(ascii: "\n")) {
            guard buffer.count < 512 else { throw Failure() }
            try fill()
        }
        guard buffer.starts(with: Array("OK ".utf8)), buffer.last == UInt8(ascii: "\n") else { throw Failure() }
        buffer.removeAll()
        try write(Array("BEGIN\r\n".utf8))
    }

    /// Sends a method call and returns its serial, to wait for with `reply(to:)`.
    /// `signature` and `body` are the arguments' (none when empty). `destination` is the
    /// bus (`org.freedesktop.DBus`) or a unique name: the reply is taken only from it.
    func send(
        destination: String, path: String, interface: String, member: String, signature: String = "",
        body: (inout WireWriter) -> Void = { _ in }
    ) throws -> UInt32 {
        var arguments = WireWriter()
        body(&arguments)
        serial += 1
        var message = WireWriter()
        for byte in [UInt8(ascii: "l"), 1, 0, 1] { message.byte(byte) }
        message.uint32(UInt32(arguments.bytes.count))
        message.uint32(serial)
        message.array(elementAlignment: 8) { fields in
            func field(_ code: UInt8, _ type: String, _ value: String) {
                fields.fields { field in
                    field.byte(code)
                    field.signature(type)
                    if type == "g" { field.signature(value) } else { field.string(value) }
                }
            }
            field(1, "o", path)
            field(2, "s", interface)
            field(3, "s", member)
            field(6, "s", destination)
            if !signature.isEmpty { field(8, "g", signature) }
        }
        message.align(8)
        try write(message.bytes + arguments.bytes)
        outstanding[serial] = destination
        return serial
    }

    /// `send`, then its reply.
    func call(
        destination: String, path: String, interface: String, member: String, signature: String = "",
        body: (inout WireWriter) -> Void = { _ in }
    ) throws -> Reply {
        try reply(
            to: send(
                destination: destination, path: path, interface: interface, member: member,
                signature: signature, body: body))
    }

    /// Waits for the reply to call `serial`, keeping a reply to another outstanding call
    /// that comes first, and dropping any reply to no outstanding call or from anyone but
    /// the connection that call went to, or an error from the bus itself (which answers
    /// for a destination that left or never was).
    func reply(to serial: UInt32) throws -> Reply {
        while true {
            if let reply = early.removeValue(forKey: serial) { return reply }
            let (answered, reply) = try nextMessage()
            guard let answered, let reply, let expected = outstanding[answered],
                reply.sender == expected || reply.errorName != nil && reply.sender == Self.bus
            else { continue }
            outstanding[answered] = nil
            if answered == serial { return reply }
            early[answered] = reply
        }
    }

    /// The next whole message: the serial it answers and the reply, or `nil`s for a
    /// signal or anything else that answers no call.
    private func nextMessage() throws -> (UInt32?, Reply?) {
        while true {
            if let total = try WireFrame.length(of: buffer, maximum: Self.maximumMessage) {
                while buffer.count < total { try fill() }
                let message = Array(buffer[0..<total])
                buffer.removeFirst(total)
                return try WireFrame.reply(in: message)
            }
            try fill()
        }
    }

    /// Reads what the socket has, waiting at most until the deadline.
    private func fill() throws {
        try wait(for: Int16(POLLIN))
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0 else { throw Failure() }
        buffer.append(contentsOf: chunk[0..<count])
        guard buffer.count <= Self.maximumMessage + 64 * 1024 else { throw Failure() }
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                guard errno == EAGAIN || errno == EINTR else { throw Failure() }
                try wait(for: Int16(POLLOUT))
                continue
            }
            sent += count
        }
    }

    /// Waits until the socket is ready for `events`, or throws when the deadline passes first.
    private func wait(for events: Int16) throws {
        while true {
            guard !deadline.hasPassed else { throw Failure() }
            var watched = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&watched, 1, deadline.remainingMilliseconds)
            if ready > 0 { return }
            if ready < 0 && errno == EINTR { continue }
            throw Failure()
        }
    }
}

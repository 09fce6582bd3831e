import Testing

@testable import SwiftKeyring

/// The header reader `BusConnection` decides by whether a message is wanted at all
/// (`WireFrame.lengths`, `WireFrame.header`): the fields each message type needs, each field
/// of its own type, paths and signatures valid, zero padding, and the fields it drops.
@Suite("D-Bus message headers")
struct WireFrameHeaderTests {
    /// A method return to serial 3 from `:1.9` holding the string "hi".
    private static func reply() -> BusMessage {
        var message = BusMessage(kind: .methodReturn, serial: 5)
        message.replySerial = 3
        message.sender = ":1.9"
        message.signature = "s"
        return message
    }

    private static func frame(_ message: BusMessage) -> [UInt8] {
        var body = WireWriter()
        if message.signature == "s" { body.string("hi") }
        return TestFrame.write(message, body: body.bytes)
    }

    /// A reply to serial 3 whose header fields are exactly `fields` (code, type, value), with an empty body.
    private static func frame(fields: [(UInt8, String, (inout WireWriter) -> Void)]) -> [UInt8] {
        var writer = WireWriter()
        for byte in [UInt8(ascii: "l"), 2, 0, 1] { writer.byte(byte) }
        writer.uint32(0)
        writer.uint32(5)
        writer.array(elementAlignment: 8) { array in
            for (code, type, value) in fields {
                array.fields {
                    $0.byte(code)
                    $0.variant(type, value)
                }
            }
        }
        writer.align(8)
        return writer.bytes
    }

    private static var replySerial: (UInt8, String, (inout WireWriter) -> Void) { (5, "u", { $0.uint32(3) }) }

    /// The header of the message `bytes` holds, read as the connection reads it.
    private static func header(_ bytes: [UInt8]) throws -> WireFrame.Header {
        guard let lengths = try WireFrame.lengths(in: bytes, maximum: BusConnection.maximumMessage) else {
            throw WireFrame.Refused(reason: "fewer than 16 bytes")
        }
        return try WireFrame.header(in: bytes, lengths: lengths)
    }

    /// Headers the specification forbids, what is wrong, and whether the cursor (`Malformed`)
    /// rather than the frame reader (`Refused`) refuses them.
    static func forbidden() -> [(String, [UInt8], Bool)] {
        var noReplySerial = reply()
        noReplySerial.replySerial = nil
        var errorWithoutName = BusMessage(kind: .error, serial: 5)
        errorWithoutName.replySerial = 3
        var serialZero = frame(reply())
        serialZero.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        var unknownType = frame(reply())
        unknownType[1] = 5
        var version2 = frame(reply())
        version2[3] = 2
        var unknownOrder = frame(reply())
        unknownOrder[0] = UInt8(ascii: "x")
        var padding = frame(reply())
        // The fields end at 47 here (16 + 31), before a byte of padding: the body starts at 48.
        padding[16 + Int(padding[12])] = 1
        var signals: [(String, [UInt8], Bool)] = []
        for missing in ["path", "interface", "member"] {
            var signal = BusMessage(kind: .signal, serial: 5)
            signal.sender = ":1.9"
            signal.path = missing == "path" ? nil : "/a"
            signal.interface = missing == "interface" ? nil : "org.example.A"
            signal.member = missing == "member" ? nil : "Changed"
            signals.append(("a signal without its \(missing)", frame(signal), false))
        }
        return signals + [
            ("a reply without the serial it answers", frame(noReplySerial), false),
            ("an error without its name", frame(errorWithoutName), false),
            ("serial 0", serialZero, false),
            ("a message of unknown type", unknownType, false),
            ("protocol version 2", version2, false),
            ("an unknown byte order", unknownOrder, false),
            ("a reply serial of type s", frame(fields: [(5, "s", { $0.string("3") })]), false),
            ("a path of type s", frame(fields: [replySerial, (1, "s", { $0.string("/a") })]), false),
            ("a signature of type s", frame(fields: [replySerial, (8, "s", { $0.string("s") })]), false),
            ("a path that is no object path", frame(fields: [replySerial, (1, "o", { $0.string("/a/") })]), true),
            ("a path with a quote", frame(fields: [replySerial, (1, "o", { $0.string("/a'b") })]), true),
            ("a signature that is no signature", frame(fields: [replySerial, (8, "g", { $0.signature("a{") })]), true),
            (
                "a sender that is no UTF-8",
                frame(fields: [
                    replySerial,
                    (
                        7, "s",
                        { writer in
                            writer.uint32(2)
                            for byte: UInt8 in [0xC3, 0x28, 0] { writer.byte(byte) }
                        }
                    ),
                ]), true
            ),
            ("an unknown field of two types", frame(fields: [replySerial, (0x50, "ss", { $0.string("a") })]), true),
            ("non-zero padding after the fields", padding, true),
        ]
    }

    @Test("Headers the specification forbids are refused by the reader's own error", arguments: forbidden())
    func forbiddenRefused(_ wrong: String, _ bytes: [UInt8], byCursor: Bool) {
        do {
            _ = try Self.header(bytes)
            Issue.record("\(wrong): read")
        } catch is WireCursor.Malformed {
            #expect(byCursor, "\(wrong): refused by the cursor, not the frame reader")
        } catch is WireFrame.Refused {
            #expect(!byCursor, "\(wrong): refused by the frame reader, not the cursor")
        } catch {
            Issue.record("\(wrong): \(error)")
        }
    }

    @Test("The messages the forbidden headers are made from read")
    func controlsRead() throws {
        let reply = try Self.header(Self.frame(Self.reply()))
        #expect(reply.message.replySerial == 3 && reply.message.sender == ":1.9" && reply.signature == "s")
        let fields = try Self.header(Self.frame(fields: [Self.replySerial, (1, "o", { $0.string("/a") })]))
        #expect(fields.message.path == "/a")
    }

    @Test("A header's fields read as sent; DESTINATION and unknown fields are read, checked and dropped")
    func fieldsRead() throws {
        let bytes = Self.frame(fields: [
            (6, "s", { $0.string(":1.7") }), Self.replySerial, (0x50, "as", { $0.strings(["x", "y"]) }),
            (7, "s", { $0.string(":1.9") }), (9, "u", { $0.uint32(2) }),
        ])
        let header = try Self.header(bytes)
        #expect(header.message.kind == .methodReturn)
        #expect(header.message.serial == 5)
        #expect(header.message.replySerial == 3)
        #expect(header.message.sender == ":1.9")
        #expect(header.message.descriptors == 2)
        #expect(header.signature == "")
        #expect(header.littleEndian)
    }

    @Test("A big-endian header reads the same")
    func bigEndian() throws {
        // "B", a method return, no flags, version 1; body length 0, serial 42, fields length 8:
        // REPLY_SERIAL (5) as a "u" of 7.
        let bytes: [UInt8] = [
            UInt8(ascii: "B"), 2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 42, 0, 0, 0, 8,
            5, 1, UInt8(ascii: "u"), 0, 0, 0, 0, 7,
        ]
        let header = try Self.header(bytes)
        #expect(!header.littleEndian)
        #expect(header.message.serial == 42)
        #expect(header.message.replySerial == 7)
    }

    @Test("An error's message is its first argument when that is a string; nothing else is taken for one")
    func errorMessage() throws {
        var error = BusMessage(kind: .error, serial: 5)
        error.replySerial = 3
        error.sender = ":1.9"
        error.errorName = "org.freedesktop.Secret.Error.IsLocked"
        for (signature, expected) in [("s", "locked"), ("su", "locked"), ("u", nil), ("", nil)] as [(String, String?)] {
            error.signature = signature
            var body = WireWriter()
            if signature.hasPrefix("s") { body.string("locked") }
            if signature.hasSuffix("u") { body.uint32(7) }
            let bytes = TestFrame.write(error, body: body.bytes)
            let header = try Self.header(bytes)
            #expect(header.message.errorName == error.errorName)
            #expect(WireFrame.errorMessage(of: header, in: bytes) == expected, "\(signature)")
        }
        // A first string that breaks the wire format is no message.
        error.signature = "s"
        var bytes = TestFrame.write(error, body: [2, 0, 0, 0, 0xC3, 0x28, 0])
        #expect(WireFrame.errorMessage(of: try Self.header(bytes), in: bytes) == nil)
        bytes = TestFrame.write(error, body: [2, 0, 0, 0, 0x6F, 0x6B, 0])
        #expect(WireFrame.errorMessage(of: try Self.header(bytes), in: bytes) == "ok")
    }

    @Test("A signal's path, interface and member read; a method call's header reads")
    func signalAndCall() throws {
        var signal = BusMessage(kind: .signal, serial: 5)
        signal.sender = BusConnection.busName
        signal.path = "/org/freedesktop/DBus"
        signal.interface = "org.freedesktop.DBus"
        signal.member = "NameOwnerChanged"
        let read = try Self.header(Self.frame(signal)).message
        #expect(read.path == signal.path && read.interface == signal.interface && read.member == signal.member)
        var call = BusMessage(kind: .methodCall, serial: 8)
        call.path = "/"
        call.member = "Ping"
        #expect(try Self.header(Self.frame(call)).message.kind == .methodCall)
    }
}

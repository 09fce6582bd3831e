/// A message's frame on the bus, read from bytes alone (no socket), so that what a peer
/// may send is checked in one place and can be fed anything in tests: the fixed header's
/// lengths, checked against a cap before the rest is waited for, then the header fields
/// and the body, read by the message's own signature to its exact end.
enum WireFrame {
    /// What a frame that breaks the wire format, or passes the cap, gives.
    struct Refused: Error {
        /// What was wrong, for the connection's error (never any of the message's bytes).
        let reason: String
    }

    /// The length of the whole message at the start of `buffer`, fields, padding and body
    /// included, or `nil` while fewer than its 16 fixed bytes are there.
    /// - Throws: `Refused` for an unknown byte order or protocol version, or lengths past
    ///   `maximum`: nothing more is read for such a message.
    static func length(of buffer: [UInt8], maximum: Int) throws -> Int? {
        guard buffer.count >= 16 else { return nil }
        let little = try isLittleEndian(buffer)
        guard buffer[3] == 1 else { throw Refused(reason: "a message of protocol version \(buffer[3])") }
        var fixed = WireReader(buffer, from: 4, to: 16, littleEndian: little)
        let bodyLength = Int(try fixed.number(4))
        _ = try fixed.number(4)
        let fieldsLength = Int(try fixed.number(4))
        let total = bodyStart(fieldsLength) + bodyLength
        guard bodyLength <= maximum, fieldsLength <= maximum, total <= maximum else {
            throw Refused(reason: "a message of \(total) bytes, more than the \(maximum) this client reads")
        }
        return total
    }

    /// The message in `message`, exactly the bytes `length(of:maximum:)` counted: its
    /// header fields checked for what its type needs, its body read by its signature.
    /// - Throws: `Refused` or `WireReader.Malformed` for anything the wire format forbids: a
    ///   reply without the serial it answers, an error without its name, a signal without its
    ///   path, interface and member, a body that is not exactly what its signature says.
    static func message(in message: [UInt8]) throws -> BusMessage {
        guard message.count >= 16 else { throw Refused(reason: "a message shorter than its header") }
        let little = try isLittleEndian(message)
        guard let kind = BusMessage.Kind(rawValue: message[1]) else {
            throw Refused(reason: "a message of unknown type \(message[1])")
        }
        var fixed = WireReader(message, from: 8, to: 16, littleEndian: little)
        let serial = UInt32(truncatingIfNeeded: try fixed.number(4))
        let headerEnd = 16 + Int(try fixed.number(4))
        let start = bodyStart(headerEnd - 16)
        guard serial != 0, headerEnd <= message.count, start <= message.count else {
            throw Refused(reason: "a message whose header does not fit it")
        }
        var header = WireReader(message, from: 12, to: headerEnd, littleEndian: little)
        var parsed = BusMessage(kind: kind, serial: serial)
        var signature = ""
        for field in try header.read("a(yv)").first?.array ?? [] {
            guard let parts = field.fields, parts.count == 2, case .number(let code) = parts[0],
                case .variant(let type, let value) = parts[1]
            else { throw Refused(reason: "a header field that is not a code and a variant") }
            switch (code, type, value) {
            case (1, "o", .string(let text)): parsed.path = text
            case (2, "s", .string(let text)): parsed.interface = text
            case (3, "s", .string(let text)): parsed.member = text
            case (4, "s", .string(let text)): parsed.errorName = text
            case (5, "u", .number(let number)): parsed.replySerial = UInt32(truncatingIfNeeded: number)
            case (7, "s", .string(let text)): parsed.sender = text
            case (8, "g", .string(let text)): signature = text
            case (9, "u", .number(let number)): parsed.descriptors = Int(number)
            case (6, "s", _): continue
            case (1...9, _, _): throw Refused(reason: "header field \(code) of type \(type)")
            default: continue
            }
        }
        switch kind {
        case .methodReturn where parsed.replySerial == nil, .error where parsed.replySerial == nil:
            throw Refused(reason: "a reply without the serial it answers")
        case .error where parsed.errorName == nil:
            throw Refused(reason: "an error without its name")
        case .signal where parsed.path == nil || parsed.interface == nil || parsed.member == nil:
            throw Refused(reason: "a signal without its path, interface and member")
        default:
            break
        }
        var body = WireReader(message, from: start, to: message.count, origin: start, littleEndian: little)
        parsed.values = try body.read(signature)
        parsed.signature = signature
        guard body.offset == message.count else { throw Refused(reason: "a body longer than its signature") }
        return parsed
    }

    private static func isLittleEndian(_ bytes: [UInt8]) throws -> Bool {
        switch bytes[0] {
        case UInt8(ascii: "l"): return true
        case UInt8(ascii: "B"): return false
        default: throw Refused(reason: "a message of unknown byte order")
        }
    }

    /// Where the body starts: the fields end, padded to 8.
    private static func bodyStart(_ fieldsLength: Int) -> Int {
        (16 + fieldsLength + 7) / 8 * 8
    }
}

/// A message's frame on the bus, read from bytes alone (no socket), so that what a peer
/// may send is checked in one place and can be fed anything in tests: the fixed header's
/// lengths, checked against a cap before the rest is waited for; then the header fields,
/// by which the connection decides whether the message is wanted at all. Only a wanted
/// message's body is read, by the connection: a `WireCursor` handed to the typed decoder its
/// call or signal handler gave, to the body's exact end.
///
/// Every function reads a frame where it lies in the connection's receive buffer (`start`),
/// by index: nothing is copied out of it to be read.
enum WireFrame {
    /// What a frame that breaks the wire format, or passes the cap, gives.
    struct Refused: Error {
        /// What was wrong, for the connection's error (never any of the message's bytes).
        let reason: String
    }

    /// The largest header read: a bus writes a few hundred bytes of fields; a message with
    /// more is dropped unread, whoever it claims to answer.
    static let maximumHeader = 64 * 1024

    /// A frame's lengths, from its 16 fixed bytes.
    struct Lengths {
        /// Where the body starts, from the frame's start: the fields end, padded to 8.
        let bodyStart: Int
        /// The whole message, fields, padding and body included.
        let total: Int
    }

    /// The message's header: its type, serial and fields, with no body read yet.
    struct Header {
        /// The message as its header gives it, its body not read.
        var message: BusMessage
        /// The body's signature.
        let signature: String
        let lengths: Lengths
        let littleEndian: Bool
    }

    /// The lengths of the message at `start` in `buffer`, or `nil` while fewer than its
    /// 16 fixed bytes are there.
    /// - Throws: `Refused` for an unknown byte order or protocol version, or lengths past
    ///   `maximum`: nothing more is read for such a message.
    static func lengths(in buffer: [UInt8], at start: Int = 0, maximum: Int) throws -> Lengths? {
        guard buffer.count - start >= 16 else { return nil }
        let little = try isLittleEndian(buffer[start])
        guard buffer[start + 3] == 1 else { throw Refused(reason: "a message of protocol version \(buffer[start + 3])") }
        var fixed = WireCursor(buffer, from: start + 4, to: start + 16, origin: start, littleEndian: little)
        let bodyLength = Int(try fixed.number(4))
        _ = try fixed.number(4)
        let fieldsLength = Int(try fixed.number(4))
        let bodyStart = (16 + fieldsLength + 7) / 8 * 8
        let total = bodyStart + bodyLength
        guard bodyLength <= maximum, fieldsLength <= maximum, total <= maximum else {
            throw Refused(reason: "a message of \(total) bytes, more than the \(maximum) this client reads")
        }
        return Lengths(bodyStart: bodyStart, total: total)
    }

    /// The header of the message at `start` in `buffer`, whose first `lengths.bodyStart`
    /// bytes must be there: its fields checked for what its type needs.
    /// - Throws: `Refused` or `WireCursor.Malformed` for anything the wire format forbids: a
    ///   reply without the serial it answers, an error without its name, a signal without its
    ///   path, interface and member, a field of the wrong type, padding after the fields that
    ///   is not zeros.
    static func header(in buffer: [UInt8], at start: Int = 0, lengths: Lengths) throws -> Header {
        guard buffer.count - start >= lengths.bodyStart else { throw Refused(reason: "a message shorter than its header") }
        let little = try isLittleEndian(buffer[start])
        guard let kind = BusMessage.Kind(rawValue: buffer[start + 1]) else {
            throw Refused(reason: "a message of unknown type \(buffer[start + 1])")
        }
        var fixed = WireCursor(buffer, from: start + 8, to: start + 16, origin: start, littleEndian: little)
        let serial = UInt32(truncatingIfNeeded: try fixed.number(4))
        let fieldsEnd = 16 + Int(try fixed.number(4))
        guard serial != 0 else { throw Refused(reason: "a message of serial 0") }
        // The fields (`a(yv)`), read where they lie into the message: no value tree.
        var fields = WireCursor(buffer, from: start + 12, to: start + fieldsEnd, origin: start, littleEndian: little)
        var parsed = BusMessage(kind: kind, serial: serial)
        var signature = ""
        try fields.arrayElements(alignment: 8) { field in
            try field.structure { entry in
                let code = try entry.byte()
                try entry.variant { value, type in
                    switch (code, type) {
                    case (1, "o"): parsed.path = try value.objectPath()
                    case (2, "s"): parsed.interface = try value.string()
                    case (3, "s"): parsed.member = try value.string()
                    case (4, "s"): parsed.errorName = try value.string()
                    case (5, "u"): parsed.replySerial = try value.uint32()
                    case (7, "s"): parsed.sender = try value.string()
                    case (8, "g"): signature = try value.signature()
                    case (9, "u"): parsed.descriptors = Int(try value.uint32())
                    case (6, "s"): _ = try value.string()
                    case (1...9, _): throw Refused(reason: "header field \(code) of type \(type)")
                    default: try value.skip(type)
                    }
                }
            }
        }
        // The header ends padded to 8 with zeros, as any value's padding: a byte there is no field.
        var padding = WireCursor(
            buffer, from: start + fieldsEnd, to: start + lengths.bodyStart, origin: start, littleEndian: little)
        try padding.align(8)
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
        parsed.signature = signature
        return Header(message: parsed, signature: signature, lengths: lengths, littleEndian: little)
    }

    /// An error's message: the first argument of its body when that is a string, the rest unread.
    static func errorMessage(of header: Header, in buffer: [UInt8], at start: Int = 0) -> String? {
        guard header.signature.hasPrefix("s") else { return nil }
        let bodyStart = start + header.lengths.bodyStart
        var body = WireCursor(buffer, from: bodyStart, to: start + header.lengths.total, littleEndian: header.littleEndian)
        return try? body.string()
    }

    private static func isLittleEndian(_ byte: UInt8) throws -> Bool {
        switch byte {
        case UInt8(ascii: "l"): return true
        case UInt8(ascii: "B"): return false
        default: throw Refused(reason: "a message of unknown byte order")
        }
    }
}

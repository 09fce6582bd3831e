/// A message's frame on the bus, read from bytes alone (no socket), so that what a peer
/// may send is checked in one place and can be fed anything in tests: the fixed header's
/// lengths, checked against a cap before the rest is waited for, then the header fields a
/// reply needs and its body, read by the reply's own signature to its exact end.
enum WireFrame {
    /// The length of the whole message at the start of `buffer`, fields, padding and body
    /// included, or `nil` while fewer than its 16 fixed bytes are there.
    /// - Throws: `WireConnection.Failure` for an unknown byte order or protocol version,
    ///   or lengths past `maximum`: nothing more is read for such a message.
    static func length(of buffer: [UInt8], maximum: Int) throws -> Int? {
        guard buffer.count >= 16 else { return nil }
        let little = try isLittleEndian(buffer)
        guard buffer[3] == 1 else { throw WireConnection.Failure() }
        var fixed = WireReader(buffer, from: 4, to: 16, littleEndian: little)
        let bodyLength = Int(try fixed.number(4))
        _ = try fixed.number(4)
        let fieldsLength = Int(try fixed.number(4))
        guard bodyLength <= maximum, fieldsLength <= maximum else { throw WireConnection.Failure() }
        let total = bodyStart(fieldsLength) + bodyLength
        guard total <= maximum else { throw WireConnection.Failure() }
        return total
    }

    /// The serial a whole message answers and the reply it carries, or `nil`s for a
    /// signal or a call: `message` is exactly the bytes `length(of:maximum:)` counted.
    /// - Throws: `WireConnection.Failure` or `WireReader.Malformed` for anything the wire
    ///   format forbids: a reply without the serial it answers, an error without its name,
    ///   a body that is not exactly what its signature says.
    static func reply(in message: [UInt8]) throws -> (UInt32?, WireConnection.Reply?) {
        guard message.count >= 16 else { throw WireConnection.Failure() }
        let little = try isLittleEndian(message)
        let type = message[1]
        guard type == 2 || type == 3 else { return (nil, nil) }
        var fixed = WireReader(message, from: 12, to: 16, littleEndian: little)
        let headerEnd = 16 + Int(try fixed.number(4))
        let start = bodyStart(headerEnd - 16)
        guard headerEnd <= message.count, start <= message.count else { throw WireConnection.Failure() }
        var header = WireReader(message, from: 12, to: headerEnd, littleEndian: little)
        var answered: UInt32?
        var sender: String?
        var errorName: String?
        var signature = ""
        for field in try header.read("a(yv)").first?.array ?? [] {
            guard let parts = field.fields, parts.count == 2, case .number(let code) = parts[0],
                case .variant(_, let value) = parts[1]
            else { throw WireConnection.Failure() }
            switch (code, value) {
            case (4, .string(let name)): errorName = name
            case (5, .number(let number)): answered = UInt32(truncatingIfNeeded: number)
            case (7, .string(let name)): sender = name
            case (8, .string(let text)): signature = text
            default: continue
            }
        }
        guard let answered else { throw WireConnection.Failure() }
        if type == 3 && errorName == nil { throw WireConnection.Failure() }
        var body = WireReader(message, from: start, to: message.count, origin: start, littleEndian: little)
        let values = try body.read(signature)
        guard body.offset == message.count else { throw WireConnection.Failure() }
        return (answered, WireConnection.Reply(sender: sender, errorName: errorName, values: values))
    }

    private static func isLittleEndian(_ bytes: [UInt8]) throws -> Bool {
        switch bytes[0] {
        case UInt8(ascii: "l"): return true
        case UInt8(ascii: "B"): return false
        default: throw WireConnection.Failure()
        }
    }

    /// Where the body starts: the fields end, padded to 8.
    private static func bodyStart(_ fieldsLength: Int) -> Int {
        (16 + fieldsLength + 7) / 8 * 8
    }
}

@testable import SwiftKeyring

/// Whole D-Bus messages for the wire tests, little-endian: written from the header fields a
/// `BusMessage` holds (what the frame tests feed the reader, and what a message the reader took
/// is written back to), and the header fields of a frame as they lie (to compare with).
enum TestFrame {
    /// The header fields the reader keeps, by code; it reads and checks the others (DESTINATION,
    /// codes it does not know) and keeps nothing of them.
    static let keptCodes: [UInt8] = [1, 2, 3, 4, 5, 7, 8, 9]

    /// `message`'s header, its fields in `order` (by default each field it holds, by code, with
    /// DESTINATION when `destination` is given), then `body`. `flags` is written as given: the reader reads none.
    static func write(
        _ message: BusMessage, destination: String? = nil, flags: UInt8 = 0, order: [UInt8]? = nil, body: [UInt8]
    ) -> [UInt8] {
        var writer = WireWriter()
        for byte in [UInt8(ascii: "l"), message.kind.rawValue, flags, 1] { writer.byte(byte) }
        writer.uint32(UInt32(body.count))
        writer.uint32(message.serial)
        let order = order ?? (keptCodes + (destination == nil ? [] : [6])).sorted().filter { holds(message, $0) }
        writer.array(elementAlignment: 8) { fields in
            for code in order {
                fields.fields { field in
                    field.byte(code)
                    switch code {
                    case 1: field.variant("o") { $0.string(message.path ?? "") }
                    case 2: field.variant("s") { $0.string(message.interface ?? "") }
                    case 3: field.variant("s") { $0.string(message.member ?? "") }
                    case 4: field.variant("s") { $0.string(message.errorName ?? "") }
                    case 5: field.variant("u") { $0.uint32(message.replySerial ?? 0) }
                    case 6: field.variant("s") { $0.string(destination ?? "") }
                    case 7: field.variant("s") { $0.string(message.sender ?? "") }
                    case 8: field.variant("g") { $0.signature(message.signature) }
                    default: field.variant("u") { $0.uint32(UInt32(message.descriptors)) }
                    }
                }
            }
        }
        writer.align(8)
        return writer.bytes + body
    }

    private static func holds(_ message: BusMessage, _ code: UInt8) -> Bool {
        switch code {
        case 1: return message.path != nil
        case 2: return message.interface != nil
        case 3: return message.member != nil
        case 4: return message.errorName != nil
        case 5: return message.replySerial != nil
        case 6: return true
        case 7: return message.sender != nil
        case 8: return !message.signature.isEmpty
        default: return message.descriptors > 0
        }
    }

    /// A header's fields as they lie in the little-endian `frame`: each one's code and where
    /// its struct starts and ends.
    static func fields(of frame: [UInt8]) throws -> [(code: UInt8, start: Int, end: Int)] {
        var fixed = WireCursor(frame, from: 12, to: 16, origin: 0, littleEndian: true)
        let fieldsEnd = 16 + Int(try fixed.uint32())
        var cursor = WireCursor(frame, from: 12, to: fieldsEnd, origin: 0, littleEndian: true)
        var fields: [(code: UInt8, start: Int, end: Int)] = []
        try cursor.arrayElements(alignment: 8) { field in
            try field.align(8)
            let start = field.offset
            let code = try field.structure { entry -> UInt8 in
                let code = try entry.byte()
                try entry.variant { value, type in try value.skip(type) }
                return code
            }
            fields.append((code, start, field.offset))
        }
        return fields
    }

    /// `frame` as the reader keeps it: its very bytes less the header fields it drops (a field
    /// it does not keep, or a kept one's earlier copies: the last one wins), and the codes of
    /// those left, in order. With nothing dropped, it is `frame` itself, padding and all.
    static func kept(_ frame: [UInt8], bodyStart: Int) throws -> (frame: [UInt8], order: [UInt8]) {
        let fields = try fields(of: frame)
        let kept = fields.indices.filter { index in
            keptCodes.contains(fields[index].code) && !fields[(index + 1)...].contains { $0.code == fields[index].code }
        }
        guard kept.count < fields.count else { return (frame, fields.map(\.code)) }
        // Each field, with the padding after it (to the next field or to the body), starts at a
        // multiple of 8 and is a multiple of 8 long: dropping some leaves the others aligned.
        var header: [UInt8] = []
        for index in kept {
            header += frame[fields[index].start..<(index + 1 < fields.count ? fields[index + 1].start : bodyStart)]
        }
        let fieldsLength = kept.last.map { header.count - (fields[$0].end.roundedUp8 - fields[$0].end) } ?? 0
        var fixed = Array(frame[0..<12])
        withUnsafeBytes(of: UInt32(fieldsLength).littleEndian) { fixed += $0 }
        return (fixed + header + frame[bodyStart...], kept.map { fields[$0].code })
    }
}

extension Int {
    /// The next multiple of 8.
    fileprivate var roundedUp8: Int { (self + 7) / 8 * 8 }
}

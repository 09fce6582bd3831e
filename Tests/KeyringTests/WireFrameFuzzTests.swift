import Testing

@testable import SwiftKeyring

/// The frame reader of the D-Bus connection of our own (`WireFrame`, which `BusConnection` reads every message with) fed what a hostile or
/// broken peer could send: every byte of a real reply changed, every truncation, and random
/// messages. Whatever comes in, the reader refuses it or reads a reply within its bounds:
/// it never traps (a crash here would end the test process), never reads past the bytes it
/// was given, and never takes a cut message for a whole one.
@Suite("D-Bus frames fuzzed")
struct WireFrameFuzzTests {
    private static let maximum = BusConnection.maximumMessage

    /// A `GetSecrets` reply as a daemon sends it: a method return answering serial 7, from
    /// `:1.42`, with one item's secret, little-endian.
    private static func secretsReply() -> [UInt8] {
        var body = WireWriter()
        body.array(elementAlignment: 8) { entries in
            entries.fields { entry in
                entry.string("/org/freedesktop/secrets/collection/login/1")
                entry.fields { secret in
                    secret.string("/org/freedesktop/secrets/session/3")
                    secret.byteArray(Array(0..<16))
                    secret.byteArray(Array(repeating: 0xA5, count: 32))
                    secret.string("text/plain")
                }
            }
        }
        var message = WireWriter()
        for byte in [UInt8(ascii: "l"), 2, 1, 1] { message.byte(byte) }
        message.uint32(UInt32(body.bytes.count))
        message.uint32(99)
        message.array(elementAlignment: 8) { fields in
            fields.fields {
                $0.byte(5)
                $0.signature("u")
                $0.uint32(7)
            }
            fields.fields {
                $0.byte(7)
                $0.signature("s")
                $0.string(":1.42")
            }
            fields.fields {
                $0.byte(8)
                $0.signature("g")
                $0.signature("a{o(oayays)}")
            }
        }
        message.align(8)
        return message.bytes + body.bytes
    }

    /// What the reader makes of `bytes` as the connection reads them: the frame's lengths
    /// first (nil: wait for more), then the reply in exactly that many bytes. A message read
    /// must write back, by its signature, to exactly its body's bytes: the reader takes only
    /// what the specification allows one way (exact lengths, zero padding, booleans 0 or 1,
    /// valid UTF-8), so anything else it read would be a value it made up.
    private static func read(_ bytes: [UInt8]) -> Outcome {
        do {
            guard let lengths = try WireFrame.lengths(in: bytes, maximum: maximum) else { return .needsMore }
            guard lengths.total <= bytes.count else { return .needsMore }
            let frame = Array(bytes[0..<lengths.total])
            let message = try WireFrame.message(in: frame)
            if frame[0] == UInt8(ascii: "l") {
                let body = Array(frame[lengths.bodyStart...])
                #expect(
                    WireRewriter.encode(message.values, message.signature) == body,
                    "a message read does not write back to its body (\(message.signature))")
            }
            return .read(answered: message.replySerial, reply: message)
        } catch {
            return .refused
        }
    }

    private enum Outcome {
        case needsMore
        case refused
        case read(answered: UInt32?, reply: BusMessage)
    }

    @Test("The real reply reads as sent")
    func realReply() throws {
        guard case .read(let answered, let reply) = Self.read(Self.secretsReply()) else {
            Issue.record("the reply was not read")
            return
        }
        #expect(answered == 7)
        #expect(reply.sender == ":1.42")
        #expect(reply.errorName == nil)
        let secret = reply.values.first?.array?.first?.fields?[1].fields
        #expect(secret?[2].bytes == Array(repeating: 0xA5, count: 32))
    }

    @Test("Every byte changed: refused, or read within the message, never a crash")
    func everyByteChanged() {
        let original = Self.secretsReply()
        var read = 0
        var refused = 0
        for index in original.indices {
            let replacements: [UInt8] = [0x00, 0xFF, original[index] ^ 0x01, original[index] ^ 0x80]
            for replacement in replacements where replacement != original[index] {
                var bytes = original
                bytes[index] = replacement
                switch Self.read(bytes) {
                case .refused, .needsMore: refused += 1
                case .read(_, let reply):
                    read += 1
                    // A message read from changed bytes still has only what its signature holds.
                    #expect(reply.values.count <= 1, "byte \(index) set to \(replacement)")
                    if reply.kind == .methodReturn || reply.kind == .error {
                        #expect(reply.replySerial != nil, "byte \(index): a reply without the serial it answers")
                    }
                }
            }
        }
        // Most changes break the frame; some only change a value (a secret's byte, the serial).
        #expect(refused > 0 && read > 0, "read \(read), refused \(refused)")
    }

    @Test("Every truncation waits for more or is refused; none reads as a whole reply")
    func everyTruncation() {
        let original = Self.secretsReply()
        for length in 0..<original.count {
            if case .read = Self.read(Array(original[0..<length])) {
                Issue.record("the first \(length) of \(original.count) bytes read as a whole reply")
            }
        }
    }

    @Test("Lengths past the cap are refused before the body is waited for")
    func lengthsPastTheCap() {
        var bytes = Self.secretsReply()
        // The body's length: 4 GiB less one, far past the cap.
        for index in 4..<8 { bytes[index] = 0xFF }
        #expect(throws: (any Error).self) { _ = try WireFrame.lengths(in: Array(bytes[0..<16]), maximum: Self.maximum) }
    }

    @Test("Random messages: refused, or read to values that write back to their very bytes; never a crash")
    func randomMessages() {
        var read = 0
        var generator = SplitMix64(seed: 0x5EED_D8B5)
        let valid = Self.secretsReply()
        for round in 0..<3000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                // Noise behind a plausible fixed header, so the reader gets past its first checks.
                let count = Int(generator.next() % 512)
                bytes = Array(valid[0..<16]) + (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                let fieldsLength = UInt32(generator.next() % 600)
                let bodyLength = UInt32(generator.next() % 600)
                withUnsafeBytes(of: bodyLength.littleEndian) { bytes.replaceSubrange(4..<8, with: $0) }
                withUnsafeBytes(of: fieldsLength.littleEndian) { bytes.replaceSubrange(12..<16, with: $0) }
            } else {
                // The real reply with a few bytes anywhere set at random.
                bytes = valid
                for _ in 0..<(1 + generator.next() % 6) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            }
            if case .read = Self.read(bytes) { read += 1 }
        }
        // Some of the changed replies still read (a changed secret byte, serial or length of padding-free
        // fields); each of those was checked against its bytes above.
        #expect(read > 0, "no random message read: the round-trip check above checked nothing")
    }
}

/// The cursor reader (`WireCursor`) reading a `GetSecrets` body straight into its typed
/// result, fed the same changed and cut bytes: each either reads to values that write back
/// to exactly the bytes it read, or throws the cursor's `Malformed`; never a trap.
extension WireFrameFuzzTests {
    /// One entry of `a{o(oayays)}`.
    private struct SecretEntry: Equatable {
        let item: String
        let session: String
        let parameters: [UInt8]
        let value: [UInt8]
        let contentType: String
    }

    private static func secretsBody() -> [UInt8] {
        let message = secretsReply()
        let lengths = try! WireFrame.lengths(in: message, maximum: maximum)!
        return Array(message[lengths.bodyStart...])
    }

    private static func decodeSecrets(_ body: [UInt8]) throws -> [SecretEntry] {
        var cursor = WireCursor(body, from: 0, to: body.count, littleEndian: true)
        let entries = try cursor.array(alignment: 8) { entry in
            try entry.structure { fields in
                let item = try fields.objectPath()
                return try fields.structure { secret in
                    SecretEntry(
                        item: item, session: try secret.objectPath(), parameters: try secret.bytes(),
                        value: try secret.withBytes { Array($0) }, contentType: try secret.string())
                }
            }
        }
        try cursor.end()
        return entries
    }

    private static func encodeSecrets(_ entries: [SecretEntry]) -> [UInt8] {
        var body = WireWriter()
        body.array(elementAlignment: 8) { array in
            for entry in entries {
                array.fields { fields in
                    fields.string(entry.item)
                    fields.fields { secret in
                        secret.string(entry.session)
                        secret.byteArray(entry.parameters)
                        secret.byteArray(entry.value)
                        secret.string(entry.contentType)
                    }
                }
            }
        }
        return body.bytes
    }

    /// Whether `body` decodes (`true`, checked to write back to its bytes) or throws the cursor's error (`false`).
    private static func cursorOutcome(_ body: [UInt8], _ what: String) -> Bool {
        do {
            let entries = try decodeSecrets(body)
            #expect(encodeSecrets(entries) == body, "\(what): values read do not write back to their bytes")
            return true
        } catch is WireCursor.Malformed {
            return false
        } catch {
            Issue.record("\(what): an error that is not the cursor's: \(error)")
            return false
        }
    }

    @Test("Cursor: the real GetSecrets body reads into its typed result")
    func cursorRealBody() throws {
        let entries = try Self.decodeSecrets(Self.secretsBody())
        #expect(
            entries == [
                SecretEntry(
                    item: "/org/freedesktop/secrets/collection/login/1", session: "/org/freedesktop/secrets/session/3",
                    parameters: Array(0..<16), value: Array(repeating: 0xA5, count: 32), contentType: "text/plain")
            ])
    }

    @Test("Cursor: every byte of a GetSecrets body changed reads back exactly or throws Malformed")
    func cursorEveryByteChanged() {
        let original = Self.secretsBody()
        var read = 0
        var refused = 0
        for index in original.indices {
            for replacement: UInt8 in [0x00, 0xFF, original[index] ^ 0x01, original[index] ^ 0x80]
            where replacement != original[index] {
                var bytes = original
                bytes[index] = replacement
                if Self.cursorOutcome(bytes, "byte \(index) set to \(replacement)") { read += 1 } else { refused += 1 }
            }
        }
        #expect(refused > 0 && read > 0, "read \(read), refused \(refused)")
    }

    @Test("Cursor: every cut of a GetSecrets body throws Malformed")
    func cursorEveryCut() {
        let original = Self.secretsBody()
        for length in 0..<original.count where Self.cursorOutcome(Array(original[0..<length]), "cut at \(length)") {
            Issue.record("the first \(length) of \(original.count) bytes read as a whole body")
        }
    }

    @Test("Cursor: random bodies read back exactly or throw Malformed")
    func cursorRandomBodies() {
        var generator = SplitMix64(seed: 0xC0_5502)
        let valid = Self.secretsBody()
        var read = 0
        for round in 0..<3000 {
            var bytes = valid
            if round % 2 == 0 {
                bytes = (0..<Int(generator.next() % 256)).map { _ in UInt8(truncatingIfNeeded: generator.next() % 4) }
            } else {
                for _ in 0..<(1 + generator.next() % 6) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            }
            if Self.cursorOutcome(bytes, "round \(round)") { read += 1 }
        }
        #expect(read > 0, "no random body read: the write-back check above checked nothing")
    }
}

/// A small seeded generator, so a failing round can be run again.
private struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// Writes values back in the wire format by their signature, little-endian, as a peer that
/// follows the specification writes them: what `WireFrameFuzzTests` compares a read body with.
private enum WireRewriter {
    static func encode(_ values: [WireValue], _ signature: String) -> [UInt8]? {
        var writer = WireWriter()
        var types = Array(signature.utf8)[...]
        for value in values {
            guard write(value, &types, into: &writer) else { return nil }
        }
        return types.isEmpty ? writer.bytes : nil
    }

    private static func fixed(_ value: UInt64, size: Int, into writer: inout WireWriter) {
        writer.align(size)
        for index in 0..<size { writer.byte(UInt8(truncatingIfNeeded: value >> (8 * index))) }
    }

    /// One complete type off the front of `types`.
    private static func completeType(_ types: inout ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let original = types
        guard let code = types.popFirst() else { return nil }
        if code == UInt8(ascii: "a") {
            guard completeType(&types) != nil else { return nil }
        } else if code == UInt8(ascii: "(") || code == UInt8(ascii: "{") {
            let close = code == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            while types.first != close {
                guard completeType(&types) != nil else { return nil }
            }
            types.removeFirst()
        }
        return original[original.startIndex..<types.startIndex]
    }

    private static func write(_ value: WireValue, _ types: inout ArraySlice<UInt8>, into writer: inout WireWriter) -> Bool {
        guard let code = types.popFirst() else { return false }
        switch (code, value) {
        case (UInt8(ascii: "y"), .number(let number)): writer.byte(UInt8(truncatingIfNeeded: number))
        case (UInt8(ascii: "b"), .boolean(let flag)): writer.boolean(flag)
        case (UInt8(ascii: "n"), .number(let number)), (UInt8(ascii: "q"), .number(let number)):
            fixed(number, size: 2, into: &writer)
        case (UInt8(ascii: "i"), .number(let number)), (UInt8(ascii: "u"), .number(let number)),
            (UInt8(ascii: "h"), .number(let number)):
            fixed(number, size: 4, into: &writer)
        case (UInt8(ascii: "x"), .number(let number)), (UInt8(ascii: "t"), .number(let number)),
            (UInt8(ascii: "d"), .number(let number)):
            fixed(number, size: 8, into: &writer)
        case (UInt8(ascii: "s"), .string(let text)), (UInt8(ascii: "o"), .string(let text)): writer.string(text)
        case (UInt8(ascii: "g"), .string(let text)): writer.signature(text)
        case (UInt8(ascii: "v"), .variant(let signature, let inner)):
            writer.signature(signature)
            var innerTypes = Array(signature.utf8)[...]
            guard write(inner, &innerTypes, into: &writer), innerTypes.isEmpty else { return false }
        case (UInt8(ascii: "a"), _):
            guard let element = completeType(&types) else { return false }
            if element.elementsEqual([UInt8(ascii: "y")]) {
                guard case .bytes(let bytes) = value else { return false }
                writer.byteArray(bytes)
                return true
            }
            guard case .array(let elements) = value else { return false }
            var fits = true
            writer.array(elementAlignment: WireReader.alignment(of: element.first!)) { array in
                for item in elements {
                    var itemTypes = element
                    fits = fits && write(item, &itemTypes, into: &array)
                }
            }
            return fits
        case (UInt8(ascii: "("), .fields(let fields)), (UInt8(ascii: "{"), .fields(let fields)):
            let close = code == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            var fits = true
            writer.fields { inner in
                for field in fields { fits = fits && write(field, &types, into: &inner) }
            }
            guard fits, types.popFirst() == close else { return false }
        default:
            return false
        }
        return true
    }
}

import Testing

@testable import SwiftKeyring

/// Whole messages read as `BusConnection` reads them, fed what a hostile or broken peer could
/// send: the frame's lengths (`WireFrame.lengths`), then its header (`WireFrame.header`), then,
/// when its signature is the one the call or handler reads, its body by the client's own typed
/// decoder on a `WireCursor` to the body's exact end. Every byte of each reply and signal the
/// client reads changed, every cut, and random messages: each either reads to a message that
/// writes back to exactly its bytes (less the header fields the reader drops by design), or
/// throws the cursor's `Malformed` or the frame reader's `Refused`; never a trap, never
/// another error, never a cut message taken for a whole one.
@Suite("D-Bus frames fuzzed")
struct WireFrameFuzzTests {
    private static let maximum = BusConnection.maximumMessage

    /// Reads a body by one of the client's decoders; gives what writes the values read back.
    /// `frame` is the whole message, where a value the decoder keeps nothing of is taken from as it lay.
    typealias Decode = @Sendable (inout WireCursor, _ frame: [UInt8]) throws -> (inout WireWriter) -> Void

    /// A message the client reads, and the decoder it reads its body with.
    struct Sample: Sendable, CustomTestStringConvertible {
        let name: String
        let frame: [UInt8]
        /// The body's signature the call or handler reads; a message of another is not decoded.
        let signature: String
        let decode: Decode
        var testDescription: String { name }
    }

    private static let daemon = ":1.42"
    private static let item = "/org/freedesktop/secrets/collection/login/1"

    private static func reply(_ signature: String, _ body: (inout WireWriter) -> Void) -> [UInt8] {
        var message = BusMessage(kind: .methodReturn, serial: 99)
        message.replySerial = 7
        message.sender = daemon
        message.signature = signature
        var writer = WireWriter()
        body(&writer)
        return TestFrame.write(message, body: writer.bytes)
    }

    private static func signal(
        from sender: String, path: String, interface: String, member: String, _ signature: String,
        _ body: (inout WireWriter) -> Void
    ) -> [UInt8] {
        var message = BusMessage(kind: .signal, serial: 12)
        message.sender = sender
        message.path = path
        message.interface = interface
        message.member = member
        message.signature = signature
        var writer = WireWriter()
        body(&writer)
        return TestFrame.write(message, body: writer.bytes)
    }

    /// A variant at `cursor` as it lay in `frame`, read past by `skip` as a decoder reads a type it keeps nothing of.
    private static func variant(at cursor: WireCursor, in frame: [UInt8]) throws -> (type: String, bytes: ArraySlice<UInt8>) {
        var cursor = cursor
        let start = cursor.offset
        let type = try cursor.variant { value, type in
            try value.skip(type)
            return type
        }
        return (type, frame[start..<cursor.offset])
    }

    private static func append(_ bytes: ArraySlice<UInt8>, to writer: inout WireWriter) {
        for byte in bytes { writer.byte(byte) }
    }

    static let samples: [Sample] = [
        Sample(
            name: "GetSecrets (a{o(oayays)})",
            frame: reply("a{o(oayays)}") { body in
                body.array(elementAlignment: 8) { entries in
                    entries.fields { entry in
                        entry.string(item)
                        SecretTransfer.Encoded(
                            session: "/org/freedesktop/secrets/session/3", parameters: Array(0..<16),
                            value: Array(repeating: 0xA5, count: 32), contentType: "text/plain"
                        ).write(into: &entry)
                    }
                }
            }, signature: "a{o(oayays)}",
            decode: { cursor, _ in
                let secrets = try SecretReplies.getSecrets(&cursor)
                return { writer in
                    writer.array(elementAlignment: 8) { entries in
                        for secret in secrets {
                            entries.fields { entry in
                                entry.string(secret.item)
                                secret.encoded.write(into: &entry)
                            }
                        }
                    }
                }
            }),
        Sample(
            name: "SearchItems (aoao)",
            frame: reply("aoao") { body in
                body.strings([item, "/org/freedesktop/secrets/collection/login/2"])
                body.strings(["/org/freedesktop/secrets/collection/work/7"])
            }, signature: "aoao",
            decode: { cursor, _ in
                let found = try SecretReplies.searchItems(&cursor)
                return { writer in
                    writer.strings(found.unlocked)
                    writer.strings(found.locked)
                }
            }),
        Sample(
            name: "OpenSession (vo)",
            frame: reply("vo") { body in
                body.variant("ay") { $0.byteArray(Array(100..<132)) }
                body.string("/org/freedesktop/secrets/session/3")
            }, signature: "vo",
            decode: { cursor, frame in
                let before = cursor
                let opened = try SecretReplies.openSession(&cursor)
                let output = try variant(at: before, in: frame)
                return { writer in
                    if let value = opened.output {
                        writer.variant("ay") { $0.byteArray(value) }
                    } else {
                        #expect(output.type != "ay", "an ay output read as none")
                        append(output.bytes, to: &writer)
                    }
                    writer.string(opened.path)
                }
            }),
        Sample(
            name: "Properties.Get (v)",
            frame: reply("v") { body in body.variant("ao") { $0.strings([item]) } }, signature: "v",
            decode: { cursor, frame in
                let before = cursor
                let value = try BasicReplies.property(&cursor)
                let raw = try variant(at: before, in: frame)
                return { writer in
                    #expect(value.type == raw.type)
                    switch value {
                    case .boolean(let flag): writer.variant("b") { $0.boolean(flag) }
                    case .string(let text): writer.variant("s") { $0.string(text) }
                    case .uint32(let number): writer.variant("u") { $0.uint32(number) }
                    case .paths(let paths): writer.variant("ao") { $0.strings(paths) }
                    case .other: append(raw.bytes, to: &writer)
                    }
                }
            }),
        Sample(
            name: "Prompt.Completed (bv)",
            frame: signal(
                from: daemon, path: "/org/freedesktop/secrets/prompt/u1", interface: "org.freedesktop.Secret.Prompt",
                member: "Completed", "bv"
            ) { body in
                body.boolean(false)
                body.variant("ao") { $0.strings([item]) }
            }, signature: "bv",
            decode: { cursor, frame in
                var before = cursor
                let completion = try PromptInterface.Completion.read(&cursor)
                _ = try before.boolean()
                let raw = try variant(at: before, in: frame)
                return { writer in
                    writer.boolean(completion.dismissed)
                    switch raw.type {
                    case "o" where completion.paths.count == 1: writer.variant("o") { $0.string(completion.paths[0]) }
                    case "ao": writer.variant("ao") { $0.strings(completion.paths) }
                    default:
                        #expect(completion.paths.isEmpty, "paths read from a \(raw.type)")
                        append(raw.bytes, to: &writer)
                    }
                }
            }),
        Sample(
            name: "NameOwnerChanged (sss)",
            frame: signal(
                from: BusConnection.busName, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "NameOwnerChanged", "sss"
            ) { body in
                body.string("org.freedesktop.secrets")
                body.string(daemon)
                body.string("")
            }, signature: "sss",
            decode: { cursor, _ in
                let change = try NameOwnerChange.read(&cursor)
                return { writer in
                    writer.string(change.name)
                    writer.string(change.oldOwner)
                    writer.string(change.newOwner)
                }
            }),
    ]

    /// What the client makes of bytes that arrived.
    enum Outcome: Hashable {
        /// Fewer bytes than the frame's lengths say: the connection waits for more.
        case needsMore
        /// The cursor's `Malformed` or the frame reader's `Refused`: the message is dropped (or
        /// its caller gets an error).
        case refused
        /// Its header read; its body, of another type than the call reads, left unread.
        case headerRead
        /// Its header and its body read by the decoder.
        case read
    }

    /// How many of each outcome, for the test's output.
    static func describe(_ outcomes: [Outcome: Int]) -> String {
        "read \(outcomes[.read, default: 0]), header only \(outcomes[.headerRead, default: 0]), "
            + "refused \(outcomes[.refused, default: 0]), waiting for more \(outcomes[.needsMore, default: 0])"
    }

    /// Reads the message at the start of `bytes` as the connection does, and checks that what
    /// it read writes back to exactly the frame's bytes: the reader takes only what the
    /// specification allows one way (exact lengths, zero padding, booleans 0 or 1, valid
    /// UTF-8, paths and signatures), so anything else it read would be a value it made up.
    static func read(_ bytes: [UInt8], _ sample: Sample, _ what: String) -> Outcome {
        let lengths: WireFrame.Lengths
        let header: WireFrame.Header
        let frame: [UInt8]
        var body: [UInt8]
        let outcome: Outcome
        do {
            guard let found = try WireFrame.lengths(in: bytes, maximum: maximum) else { return .needsMore }
            lengths = found
            guard lengths.total <= bytes.count else { return .needsMore }
            frame = Array(bytes[0..<lengths.total])
            header = try WireFrame.header(in: frame, lengths: lengths)
            if header.signature == sample.signature {
                var cursor = WireCursor(
                    frame, from: lengths.bodyStart, to: lengths.total, littleEndian: header.littleEndian)
                let writeBack = try sample.decode(&cursor, frame)
                try cursor.end()
                var writer = WireWriter()
                writeBack(&writer)
                body = writer.bytes
                outcome = .read
            } else {
                body = Array(frame[lengths.bodyStart...])
                outcome = .headerRead
            }
        } catch is WireCursor.Malformed {
            return .refused
        } catch is WireFrame.Refused {
            return .refused
        } catch {
            Issue.record("\(what): an error that is neither the cursor's nor the frame reader's: \(error)")
            return .refused
        }
        // The writer writes little-endian only; big-endian reads are checked by WireFrameHeaderTests.
        guard header.littleEndian else { return outcome }
        do {
            let kept = try TestFrame.kept(frame, bodyStart: lengths.bodyStart)
            let written = TestFrame.write(header.message, flags: frame[2], order: kept.order, body: body)
            #expect(written == kept.frame, "\(what): a message read does not write back to its bytes")
        } catch {
            Issue.record("\(what): a header read whose fields do not read again: \(error)")
        }
        return outcome
    }

    @Test("Each reply and signal the client reads reads as sent", arguments: samples)
    func realMessages(_ sample: Sample) {
        #expect(Self.read(sample.frame, sample, sample.name) == .read)
    }

    @Test("GetSecrets reads into its typed result: the item, the session, the secret's bytes")
    func secretsRead() throws {
        let sample = Self.samples[0]
        let lengths = try #require(try WireFrame.lengths(in: sample.frame, maximum: Self.maximum))
        let header = try WireFrame.header(in: sample.frame, lengths: lengths)
        #expect(header.message.replySerial == 7)
        #expect(header.message.sender == Self.daemon)
        var cursor = WireCursor(sample.frame, from: lengths.bodyStart, to: lengths.total, littleEndian: true)
        let secrets = try SecretReplies.getSecrets(&cursor)
        try cursor.end()
        #expect(secrets.map(\.item) == [Self.item])
        #expect(secrets.first?.encoded.session == "/org/freedesktop/secrets/session/3")
        #expect(secrets.first?.encoded.value == Array(repeating: 0xA5, count: 32))
        #expect(secrets.first?.encoded.contentType == "text/plain")
    }

    @Test("Every byte changed: read back to exactly its bytes, or refused by the reader's own error", arguments: samples)
    func everyByteChanged(_ sample: Sample) {
        let original = sample.frame
        var outcomes: [Outcome: Int] = [:]
        for index in original.indices {
            for replacement: UInt8 in [0x00, 0xFF, original[index] ^ 0x01, original[index] ^ 0x80]
            where replacement != original[index] {
                var bytes = original
                bytes[index] = replacement
                outcomes[Self.read(bytes, sample, "byte \(index) set to \(replacement)"), default: 0] += 1
            }
        }
        print("\(sample.name), every byte changed: \(Self.describe(outcomes))")
        // Most changes break the frame; some only change a value (a secret's byte, a serial, a name).
        #expect(outcomes[.read, default: 0] > 0 && outcomes[.refused, default: 0] > 0, "\(Self.describe(outcomes))")
    }

    @Test("Every cut: a prefix waits for more, a body cut short (its length told) is refused", arguments: samples)
    func everyCut(_ sample: Sample) throws {
        let original = sample.frame
        for length in 0..<original.count {
            let outcome = Self.read(Array(original[0..<length]), sample, "the first \(length) bytes")
            #expect(outcome == .needsMore, "the first \(length) of \(original.count) bytes: \(outcome)")
        }
        let lengths = try #require(try WireFrame.lengths(in: original, maximum: Self.maximum))
        for length in lengths.bodyStart..<original.count {
            var bytes = Array(original[0..<length])
            withUnsafeBytes(of: UInt32(length - lengths.bodyStart).littleEndian) { bytes.replaceSubrange(4..<8, with: $0) }
            let outcome = Self.read(bytes, sample, "the body cut to \(length - lengths.bodyStart) bytes")
            #expect(outcome == .refused, "the body cut to \(length - lengths.bodyStart) bytes: \(outcome)")
        }
        // The same bytes uncut read: the cuts above are refused for being cut.
        #expect(Self.read(original, sample, "uncut") == .read)
    }

    @Test("Lengths past the cap are refused before the body is waited for")
    func lengthsPastTheCap() {
        var bytes = Self.samples[0].frame
        // The body's length: 4 GiB less one, far past the cap.
        for index in 4..<8 { bytes[index] = 0xFF }
        #expect(throws: WireFrame.Refused.self) {
            _ = try WireFrame.lengths(in: Array(bytes[0..<16]), maximum: Self.maximum)
        }
    }

    @Test("Random messages: read back to exactly their bytes, or refused by the reader's own error")
    func randomMessages() throws {
        var generator = SplitMix64(seed: 0x5EED_D8B5)
        var outcomes: [Outcome: Int] = [:]
        for round in 0..<6000 {
            let sample = Self.samples[round % Self.samples.count]
            let valid = sample.frame
            var bytes: [UInt8]
            switch round / Self.samples.count % 3 {
            case 0:
                // Noise behind a plausible fixed header, so the reader gets past its first checks.
                let count = Int(generator.next() % 512)
                bytes = Array(valid[0..<16]) + (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                let fieldsLength = UInt32(generator.next() % 600)
                let bodyLength = UInt32(generator.next() % 600)
                withUnsafeBytes(of: bodyLength.littleEndian) { bytes.replaceSubrange(4..<8, with: $0) }
                withUnsafeBytes(of: fieldsLength.littleEndian) { bytes.replaceSubrange(12..<16, with: $0) }
            case 1:
                // The real header, then a body of small bytes (lengths, padding, booleans the decoder may take).
                let lengths = try #require(try WireFrame.lengths(in: valid, maximum: Self.maximum))
                let body = (0..<Int(generator.next() % 256)).map { _ in UInt8(truncatingIfNeeded: generator.next() % 4) }
                bytes = Array(valid[0..<lengths.bodyStart]) + body
                withUnsafeBytes(of: UInt32(body.count).littleEndian) { bytes.replaceSubrange(4..<8, with: $0) }
            default:
                // The real message with a few bytes anywhere set at random.
                bytes = valid
                for _ in 0..<(1 + generator.next() % 6) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            }
            outcomes[Self.read(bytes, sample, "round \(round)"), default: 0] += 1
        }
        print("random messages: \(Self.describe(outcomes))")
        // Some changed messages still read (a changed secret byte, serial or name); each was checked against its bytes.
        #expect(outcomes[.read, default: 0] > 0 && outcomes[.refused, default: 0] > 0, "\(Self.describe(outcomes))")
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

import Testing

@testable import SwiftKeyring

/// The library's own UTF-8 reading (`ExactUTF8`, used for every string a D-Bus peer sends
/// and every password read back) judges bytes exactly as `String(validating:as:)` does,
/// and its comparison and hash are the bytes'.
@Suite("Exact UTF-8 text")
struct ExactUTF8Tests {
    /// Valid text of every length class, and the invalid forms a repair could hide: a cut
    /// sequence that a replacement character (3 bytes) would replace byte for byte, lone
    /// continuation bytes, overlong forms, surrogates, values past U+10FFFF, and a
    /// replacement character that really is in the text.
    private static let samples: [[UInt8]] = [
        [], Array("plain ascii".utf8), Array("ключ 🔑\t\u{E9}e\u{301}".utf8), Array("\u{FFFD}".utf8),
        [0xF0, 0x9F, 0x98, 0x41], [0xE2, 0x82, 0x41], [0x80], [0xBF, 0x41], [0xC0, 0xAF], [0xE0, 0x80, 0xAF],
        [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x41, 0xF0, 0x9F, 0x98],
        [0xEF, 0xBF, 0xBD, 0xF0, 0x9F, 0x98],
    ]

    @Test("Bytes are taken or refused as String(validating:as:) has it, never repaired")
    func judgedAsTheStandardLibrary() {
        var generator = SystemRandomNumberGenerator()
        // Random bytes mostly from the ranges where UTF-8's rules bite.
        let random = (0..<2000).map { _ in
            (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                [UInt8.random(in: 0x00...0x7F, using: &generator), UInt8.random(in: 0x80...0xFF, using: &generator)][
                    Int.random(in: 0...3, using: &generator) == 0 ? 0 : 1]
            }
        }
        var refused = 0
        for bytes in Self.samples + random {
            let expected = String(validating: bytes, as: UTF8.self)
            let read = ExactUTF8.string(bytes[...])
            #expect(read.map { Array($0.utf8) } == expected.map { Array($0.utf8) }, "\(bytes)")
            if expected == nil { refused += 1 }
        }
        // Or the comparison above proved nothing about refusals.
        #expect(refused > 100)
    }

    @Test("Canonically equivalent text is two identities, with their own hashes; the same bytes are one")
    func identitiesByBytes() {
        let composed = RecordID(service: "s", key: "caf\u{E9}", kind: .credentials)
        let decomposed = RecordID(service: "s", key: "cafe\u{301}", kind: .credentials)
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        let again = RecordID(service: String("s"), key: "caf" + "\u{E9}", kind: .credentials)
        #expect(composed == again && composed.hashValue == again.hashValue)
        // Where the service ends counts: "ab"/"c" is not "a"/"bc".
        #expect(
            RecordID(service: "ab", key: "c", kind: .secret).hashValue
                != RecordID(service: "a", key: "bc", kind: .secret).hashValue)
        #expect(RecordID(service: "ab", key: "c", kind: .secret) != RecordID(service: "a", key: "bc", kind: .secret))
    }
}

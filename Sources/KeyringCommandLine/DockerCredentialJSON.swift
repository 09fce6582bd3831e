internal import KeyringCrypto

/// The JSON of docker-credential-helpers' protocol, read and written as bytes, so a
/// `Secret` is never a `String` (whose storage nothing can wipe).
///
/// Reading follows Go's `encoding/json` as the reference helpers decode a `Credentials`
/// (`credentials/credentials.go`): one object; member names matched exactly, else without
/// regard to ASCII case; a repeated member's last value wins; `null` leaves a member unset;
/// other members are skipped. Stricter where Go would store something no client meant: a
/// string that is not UTF-8 once decoded, and anything but white space after the object, are refused.
///
/// Writing follows Go's encoder byte for byte (`<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes,
/// controls as `\u00xx` but for `\n`, `\r`, `\t`), so an answer reads as the reference's does.
package enum DockerCredentialJSON {
    /// Why an input was refused: the field, or the place in the input; never a value.
    package struct Refusal: Error, Equatable {
        package var reason: String
        /// The member whose string the input ended inside, if it did: what a cut input was cut in.
        package var unterminatedField: String? = nil
    }

    /// The string members named in `names` of the JSON object in `input`, each decoded into
    /// bytes of its own (the caller wipes them), keyed by the name as given in `names`.
    /// - Throws: ``Refusal`` naming the member, or the byte where the input stops being JSON;
    ///   no decoded value outlives a refusal.
    package static func strings(named names: [String], in input: [UInt8], range: Range<Int>? = nil) throws -> [String: [UInt8]] {
        var reader = Reader(bytes: input, range: range)
        var found: [String: [UInt8]] = [:]
        do {
            try reader.object { member, reader in
                guard let name = match(member, names) else { return try reader.skipValue() }
                guard let value = try reader.stringOrNull(field: name) else {
                    found[name]?.wipe()
                    found[name] = nil
                    return
                }
                found[name]?.wipe()
                found[name] = value
            }
            reader.skipSpace()
            guard reader.index == reader.end else { throw reader.refusal("there is more after the JSON object") }
        } catch {
            for name in found.keys { found[name]?.wipe() }
            throw error
        }
        return found
    }

    /// The members of the JSON object in `input` (or in `range` of it): each name, and where its
    /// value lies in `input`, in the order written. Values are not decoded, so no secret is copied.
    /// - Throws: ``Refusal`` where the input stops being JSON.
    package static func members(in input: [UInt8], range: Range<Int>? = nil) throws -> [(name: String, value: Range<Int>)] {
        var reader = Reader(bytes: input, range: range)
        var members: [(String, Range<Int>)] = []
        try reader.object { name, reader in
            let start = reader.index
            try reader.skipValue()
            members.append((String(decoding: name, as: UTF8.self), start..<reader.index))
        }
        reader.skipSpace()
        guard reader.index == reader.end else { throw reader.refusal("there is more after the JSON object") }
        return members
    }

    /// Go's rule: the member name exactly, else the one equal to it without regard to ASCII case.
    private static func match(_ member: [UInt8], _ names: [String]) -> String? {
        if let exact = names.first(where: { $0.utf8.elementsEqual(member) }) { return exact }
        return names.first { name in
            name.utf8.count == member.count && zip(name.utf8, member).allSatisfy { lowered($0) == lowered($1) }
        }
    }

    private static func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    /// Appends `value` as a JSON string, escaped as Go's encoder escapes (HTML-safe).
    /// `value` is valid UTF-8 (every stored name and password is).
    package static func appendString(_ value: some Collection<UInt8>, to output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        var bytes = value.makeIterator()
        var pending: [UInt8] = []
        while let byte = pending.isEmpty ? bytes.next() : Optional(pending.removeFirst()) {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"):
                output += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            case 0xE2:
                // U+2028 and U+2029 (E2 80 A8, E2 80 A9): JavaScript's line ends, escaped by Go.
                let second = bytes.next()
                let third = second == 0x80 ? bytes.next() : nil
                if second == 0x80, let third, third == 0xA8 || third == 0xA9 {
                    output += Array("\\u202".utf8) + [third == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")]
                } else {
                    output.append(byte)
                    pending = [second, third].compactMap { $0 }
                }
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The bytes a string of `count` bytes can take once escaped, at most (`\u00xx` for each).
    package static func escapedBound(_ count: Int) -> Int { 6 * count + 2 }

    /// A cursor over JSON bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index: Int
        /// Where the value read ends: the end of `bytes`, or of a member's value within them.
        let end: Int

        init(bytes: [UInt8], range: Range<Int>? = nil) {
            self.bytes = bytes
            index = range?.lowerBound ?? 0
            end = range?.upperBound ?? bytes.count
        }

        func refusal(_ reason: String) -> Refusal {
            Refusal(reason: "the input is not the JSON object the protocol sends (\(reason), at byte \(index + 1))")
        }

        mutating func skipSpace() {
            while index < end, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws {
            skipSpace()
            guard index < end, bytes[index] == byte else {
                throw refusal(index < end ? "expected \(what)" : "it ends before \(what)")
            }
            index += 1
        }

        /// Reads an object, calling `member` with each member's name once the reader stands at its value.
        mutating func object(_ member: ([UInt8], inout Reader) throws -> Void) throws {
            try expect(UInt8(ascii: "{"), "an object's {")
            skipSpace()
            if index < end, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                skipSpace()
                guard index < end, bytes[index] == UInt8(ascii: "\"") else { throw refusal("expected a member's name") }
                let name = try string(field: nil)
                try expect(UInt8(ascii: ":"), "a :")
                skipSpace()
                try member(name, &self)
                skipSpace()
                guard index < end else { throw refusal("it ends inside the object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { throw refusal("expected , or }") }
                index += 1
                return
            }
        }

        /// A string's decoded bytes, or `nil` for `null`; any other value is refused, naming `field`.
        mutating func stringOrNull(field: String) throws -> [UInt8]? {
            guard index < end else { throw Refusal(reason: "\(field) has no value") }
            if bytes[index...].starts(with: Array("null".utf8)) {
                index += 4
                return nil
            }
            guard bytes[index] == UInt8(ascii: "\"") else { throw Refusal(reason: "\(field) must be a JSON string") }
            return try string(field: field)
        }

        /// Decodes the string at the reader into bytes of their own, sized once for the largest
        /// it can be, so no outgrown copy is left unwiped. A refusal names `field` (when given) and wipes them.
        mutating func string(field: String?) throws -> [UInt8] {
            index += 1
            var value: [UInt8] = []
            value.reserveCapacity(end - index)
            do {
                while true {
                    guard index < end else {
                        throw Refusal(
                            reason: field.map { "\($0) ends before its closing quote" } ?? "it ends inside a name",
                            unterminatedField: field)
                    }
                    let byte = bytes[index]
                    index += 1
                    switch byte {
                    case UInt8(ascii: "\""):
                        guard String(validating: value, as: UTF8.self) != nil else {
                            throw Refusal(reason: "\(field ?? "a member's name") is not UTF-8 text")
                        }
                        return value
                    case UInt8(ascii: "\\"):
                        try escape(into: &value, field: field)
                    case 0..<0x20:
                        throw Refusal(reason: "\(field ?? "a member's name") holds a raw control character (JSON escapes them)")
                    default:
                        value.append(byte)
                    }
                }
            } catch {
                value.wipe()
                throw error
            }
        }

        private mutating func escape(into value: inout [UInt8], field: String?) throws {
            let what = field ?? "a member's name"
            guard index < end else { throw Refusal(reason: "\(what) ends inside an escape") }
            let byte = bytes[index]
            index += 1
            let simple: [UInt8: UInt8] = [
                UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
                UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
            ]
            if let plain = simple[byte] {
                value.append(plain)
                return
            }
            guard byte == UInt8(ascii: "u"), var scalar = hex4() else { throw Refusal(reason: "\(what) holds a bad escape") }
            if (0xD800..<0xDC00).contains(scalar) {
                // A surrogate pair; a lone half becomes U+FFFD, as Go decodes it.
                let save = index
                if index + 1 < end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    if let low = hex4(), (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        index = save
                        scalar = 0xFFFD
                    }
                } else {
                    scalar = 0xFFFD
                }
            } else if (0xDC00..<0xE000).contains(scalar) {
                scalar = 0xFFFD
            }
            value.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= end else { return nil }
            var result: UInt32 = 0
            for byte in bytes[index..<(index + 4)] {
                guard let digit = hexValue(byte) else { return nil }
                result = result << 4 | digit
            }
            index += 4
            return result
        }

        private func hexValue(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }

        /// Skips any JSON value (a member the protocol does not use).
        mutating func skipValue(depth: Int = 0) throws {
            guard depth < 64 else { throw refusal("it nests too deeply") }
            skipSpace()
            guard index < end else { throw refusal("it ends before a value") }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                var skipped = try string(field: nil)
                skipped.wipe()
            case UInt8(ascii: "{"):
                try object { _, reader in try reader.skipValue(depth: depth + 1) }
            case UInt8(ascii: "["):
                index += 1
                skipSpace()
                if index < end, bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return
                }
                while true {
                    try skipValue(depth: depth + 1)
                    skipSpace()
                    guard index < end else { throw refusal("it ends inside an array") }
                    index += 1
                    if bytes[index - 1] == UInt8(ascii: "]") { return }
                    guard bytes[index - 1] == UInt8(ascii: ",") else { throw refusal("expected , or ]") }
                }
            default:
                // A number, true, false or null: its characters, checked loosely (the value is not used).
                let start = index
                while index < end, Array("+-.0123456789eEtrufalsn".utf8).contains(bytes[index]) { index += 1 }
                let word = Array(bytes[start..<index])
                guard !word.isEmpty,
                    [Array("true".utf8), Array("false".utf8), Array("null".utf8)].contains(word)
                        || word.allSatisfy({ Array("+-.0123456789eE".utf8).contains($0) })
                else { throw refusal("expected a value") }
            }
        }
    }
}

import SwiftKeyring

extension RecordJSON {
    /// `get --json`'s line: the bytes `JSONOutput.encode(RecordJSON(key:credentials:))` makes of
    /// the record (its keys sorted, as `.sortedKeys` writes them), with `password`'s bytes as the
    /// password, never a `String` of them. One buffer of the exact size, which the caller wipes:
    /// a buffer that grows leaves its outgrown copy unwiped.
    static func line(key: String, credentials: Credentials, password: [UInt8]) -> [UInt8] {
        let fields: [(name: String, value: Value)] = [
            ("backgroundAccess", .literal(credentials.backgroundAccess)),
            ("key", .string(ArraySlice(key.utf8))),
            ("password", .string(password[...])),
            ("sync", .literal(credentials.syncEnabled)),
            ("url", .string(ArraySlice(credentials.url.absoluteString.utf8))),
            ("username", .string(ArraySlice(credentials.username.utf8))),
        ]
        // The braces, a comma between fields, and each field's quoted name and its colon.
        let count = fields.reduce(2 + fields.count - 1) { count, field in count + field.name.utf8.count + 3 + field.value.count }
        var line: [UInt8] = []
        line.reserveCapacity(count)
        line.append(UInt8(ascii: "{"))
        for (index, field) in fields.enumerated() {
            if index > 0 { line.append(UInt8(ascii: ",")) }
            line.append(UInt8(ascii: "\""))
            line.append(contentsOf: field.name.utf8)
            line.append(contentsOf: "\":".utf8)
            field.value.append(to: &line)
        }
        line.append(UInt8(ascii: "}"))
        return line
    }

    /// A field's value: a JSON string of these bytes, or `true`/`false`.
    private enum Value {
        case string(ArraySlice<UInt8>)
        case literal(Bool)

        /// How many bytes it takes in the line.
        var count: Int {
            switch self {
            case .string(let bytes): 2 + JSONStringEscaping.escapedCount(bytes)
            case .literal(let value): value ? 4 : 5
            }
        }

        /// Appends it to `line`, which has room for it.
        func append(to line: inout [UInt8]) {
            switch self {
            case .string(let bytes):
                line.append(UInt8(ascii: "\""))
                JSONStringEscaping.append(bytes, to: &line)
                line.append(UInt8(ascii: "\""))
            case .literal(let value):
                line.append(contentsOf: (value ? "true" : "false").utf8)
            }
        }
    }
}

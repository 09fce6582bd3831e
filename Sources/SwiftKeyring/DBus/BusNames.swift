/// The D-Bus specification's rules for the names and paths a peer gives: a bus's unique
/// name and an object path are checked where they are read, so that a bad one is an error
/// naming what was wrong, never a name a call goes to or a path a match rule quotes.
enum BusNames {
    /// Whether `name` is a unique connection name: `:` and at least two non-empty elements
    /// of `[A-Za-z0-9_-]` separated by dots, 255 bytes at most (`:1.42`).
    static func isUniqueName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count >= 4, bytes.count <= 255, bytes[0] == UInt8(ascii: ":") else { return false }
        var elements = 0
        for element in bytes[1...].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard !element.isEmpty, element.allSatisfy({ isNameByte($0) || $0 == UInt8(ascii: "-") }) else {
                return false
            }
            elements += 1
        }
        return elements >= 2
    }

    /// Whether `path` is an object path: `/`, or `/`-separated non-empty elements of
    /// `[A-Za-z0-9_]` with no `/` at the end.
    static func isObjectPath(_ path: ArraySlice<UInt8>) -> Bool {
        guard path.first == UInt8(ascii: "/") else { return false }
        guard path.count > 1 else { return true }
        var previous = UInt8(ascii: "/")
        for byte in path[(path.startIndex + 1)...] {
            if byte == UInt8(ascii: "/") {
                guard previous != UInt8(ascii: "/") else { return false }
            } else if !isNameByte(byte) {
                return false
            }
            previous = byte
        }
        return previous != UInt8(ascii: "/")
    }

    /// `name` when it is a unique name.
    /// - Throws: `KeyringError.serviceUnavailable(reason: .noSessionBus)` naming `what` the
    ///   bus answered and why it is no unique name (never the name itself past 64 bytes).
    static func uniqueName(_ name: String, _ what: String) throws -> String {
        guard isUniqueName(name) else {
            let shown = name.isEmpty ? "an empty name" : "\"\(name.prefix(64))\""
            throw KeyringError.serviceUnavailable(
                reason: .noSessionBus(detail: "the bus answered \(what) with \(shown), which is not a unique name"))
        }
        return name
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}

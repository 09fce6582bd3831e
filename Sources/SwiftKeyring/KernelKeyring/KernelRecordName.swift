/// The descriptions the kernel store gives its keys, which is how it finds them.
///
/// A service's records live in a keyring named `swift-keyring:` and the service. In it, a
/// record's key is named by its kind and its key, `credentials:KEY` or `secret:KEY`: the kind
/// words hold no `:`, so the first `:` ends the kind and everything after it is the key, byte
/// for byte (any text but NUL, which ``Keyring`` refuses). The parts of a record too large for
/// one key are named `part:GENERATION:INDEX`, which no kind word begins.
enum KernelRecordName {
    /// The service keyring's description: `swift-keyring:SERVICE`.
    static func keyring(of service: String) throws -> String {
        let name = "swift-keyring:" + service
        guard name.utf8.count <= KernelKeyring.longestDescription else {
            throw KeyringError.invalidRecord(
                field: "service",
                reason: "the kernel store holds service names of up to \(KernelKeyring.longestDescription - 14) bytes")
        }
        return name
    }

    /// The record's description: `KIND:KEY`.
    static func record(_ id: RecordID) throws -> String {
        let name = id.kind.rawValue + ":" + id.key
        guard name.utf8.count <= KernelKeyring.longestDescription else {
            let room = KernelKeyring.longestDescription - id.kind.rawValue.utf8.count - 1
            throw KeyringError.invalidRecord(field: "key", reason: "the kernel store holds keys of up to \(room) bytes")
        }
        return name
    }

    /// The kind and key a record's description names; `nil` for a part or a key of another program.
    static func parse(_ description: [UInt8]) -> (kind: RecordKind, key: String)? {
        guard let colon = description.firstIndex(of: UInt8(ascii: ":")),
            let word = ExactUTF8.string(description[..<colon]),
            let kind = RecordKind(rawValue: word),
            let key = ExactUTF8.string(description[(colon + 1)...])
        else { return nil }
        return (kind, key)
    }

    /// The description of part `index` of the record written as `generation`.
    static func part(_ generation: UInt64, _ index: Int) -> String {
        "part:\(String(generation, radix: 16)):\(index)"
    }
}

internal import KeyringCrypto

/// Writes a D-Bus message in little-endian byte order: the header `BusConnection` sends
/// and the arguments of every call the Secret Service client, the probe and the portal make.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    /// Pads with zeros to a multiple of `boundary`, counted from the message's start.
    mutating func align(_ boundary: Int) {
        while bytes.count % boundary != 0 { bytes.append(0) }
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func uint32(_ value: UInt32) {
        align(4)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// `s` or `o`: its length, its bytes, a NUL.
    mutating func string(_ value: String) {
        uint32(UInt32(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
        bytes.append(0)
    }

    /// `g`: a signature, whose length is one byte.
    mutating func signature(_ value: String) {
        bytes.append(UInt8(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
        bytes.append(0)
    }

    /// `ay`.
    mutating func byteArray(_ value: [UInt8]) {
        uint32(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    /// An array whose elements `body` writes, aligned to `elementAlignment`: its length is
    /// filled in afterwards, and does not count the padding before the first element.
    mutating func array(elementAlignment: Int, _ body: (inout WireWriter) -> Void) {
        uint32(0)
        let lengthAt = bytes.count - 4
        align(elementAlignment)
        let start = bytes.count
        body(&self)
        let length = UInt32(bytes.count - start).littleEndian
        withUnsafeBytes(of: length) { raw in
            for index in 0..<4 { bytes[lengthAt + index] = raw[index] }
        }
    }

    /// A struct or dictionary entry: aligned to 8.
    mutating func fields(_ body: (inout WireWriter) -> Void) {
        align(8)
        body(&self)
    }

    mutating func boolean(_ value: Bool) { uint32(value ? 1 : 0) }

    /// `as` or `ao`.
    mutating func strings(_ values: [String]) {
        array(elementAlignment: 4) { array in values.forEach { array.string($0) } }
    }

    /// `a{ss}`, in name order (a daemon keeps no order; a fixed one makes messages comparable).
    mutating func stringTable(_ table: [String: String]) {
        array(elementAlignment: 8) { array in
            for (name, value) in table.sorted(by: { $0.key < $1.key }) {
                array.fields {
                    $0.string(name)
                    $0.string(value)
                }
            }
        }
    }

    /// A variant holding one value of `signature`, which `body` writes.
    mutating func variant(_ signature: String, _ body: (inout WireWriter) -> Void) {
        self.signature(signature)
        body(&self)
    }

    /// `a{sv}` with string values only: the properties the client sets (labels, tokens)
    /// and `value` entries other calls need, each written by its own closure.
    mutating func properties(_ entries: [(String, String, (inout WireWriter) -> Void)]) {
        array(elementAlignment: 8) { array in
            for (name, signature, value) in entries {
                array.fields {
                    $0.string(name)
                    $0.variant(signature, value)
                }
            }
        }
    }

    /// Overwrites every byte written, for a message that held a secret.
    mutating func wipe() {
        bytes.wipe()
        bytes.removeAll()
    }
}

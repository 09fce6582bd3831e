/// Comparison whose time does not depend on where two byte strings differ.
package enum ConstantTime {
    package static func equal(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<left.count {
            difference |= left[index] ^ right[index]
        }
        return difference == 0
    }

    // The callers' types, not `some Collection<UInt8>`: called from another module, the generic
    // version ran unspecialised, and its first call looked up a conformance by scanning every
    // conformance record of the binary (about 0.15M instructions of a process's start).
    package static func equal(_ left: [UInt8], _ right: ArraySlice<UInt8>) -> Bool {
        left.withUnsafeBytes { mine in right.withUnsafeBytes { theirs in equal(mine, theirs) } }
    }

    package static func equal(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        left.withUnsafeBytes { mine in right.withUnsafeBytes { theirs in equal(mine, theirs) } }
    }
}

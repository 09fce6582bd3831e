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

    package static func equal(_ left: some Collection<UInt8>, _ right: some Collection<UInt8>) -> Bool {
        Array(left).withUnsafeBytes { mine in Array(right).withUnsafeBytes { theirs in equal(mine, theirs) } }
    }
}

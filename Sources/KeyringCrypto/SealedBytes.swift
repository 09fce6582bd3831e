/// Bytes that sealed records point into: the whole file they were read from, or
/// one record's own `length ‖ entry ‖ length ‖ secret` until the next write.
/// Shared by reference, so 100,000 records hold one buffer, not 200,000 arrays.
package final class SealedBytes: Sendable {
    package let bytes: [UInt8]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }
}

internal import CGcrypt

extension Array where Element == UInt8 {
    /// Overwrites every byte with zero, for buffers that held a secret in ordinary memory.
    package mutating func wipe() {
        withUnsafeMutableBytes { buffer in
            if let start = buffer.baseAddress { swift_keyring_wipe(start, buffer.count) }
        }
    }
}

import Glibc

/// Writing to a Unix socket with descriptors on the first byte (`SCM_RIGHTS`), as the bus
/// connection passes the portal its pipe: the control message, and one `sendmsg` of a
/// message's rest.
enum DescriptorPassing {
    /// Calls `body` with the control message carrying `descriptors`, or `nil` when there are
    /// none (nearly every call, which then allocates nothing for it).
    static func withControl<Result>(
        _ descriptors: [Int32], _ body: (UnsafeMutableRawBufferPointer?) throws -> Result
    ) rethrows -> Result {
        guard !descriptors.isEmpty else { return try body(nil) }
        let space = MemoryLayout<cmsghdr>.size + 4 * descriptors.count
        let control = UnsafeMutableRawBufferPointer.allocate(byteCount: (space + 7) & ~7, alignment: 8)
        defer { control.deallocate() }
        control.initializeMemory(as: UInt8.self, repeating: 0)
        var entry = cmsghdr()
        entry.cmsg_len = space
        entry.cmsg_level = SOL_SOCKET
        entry.cmsg_type = Int32(SCM_RIGHTS)
        control.storeBytes(of: entry, as: cmsghdr.self)
        for (index, descriptor) in descriptors.enumerated() {
            control.storeBytes(of: descriptor, toByteOffset: MemoryLayout<cmsghdr>.size + 4 * index, as: Int32.self)
        }
        return try body(control)
    }

    /// One `sendmsg` of `bytes` from `offset` on `socket`, with `control` only when `offset`
    /// is 0 (descriptors travel with a message's first byte); the count sent, or -1 with `errno` set.
    static func send(_ socket: Int32, _ bytes: [UInt8], from offset: Int, control: UnsafeMutableRawBufferPointer?) -> Int {
        bytes.withUnsafeBytes { raw -> Int in
            var vector = iovec(
                iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + offset), iov_len: raw.count - offset)
            var header = msghdr()
            if offset == 0, let control {
                header.msg_control = control.baseAddress
                header.msg_controllen = control.count
            }
            return withUnsafeMutablePointer(to: &vector) { vector in
                header.msg_iov = vector
                header.msg_iovlen = 1
                return sendmsg(socket, &header, Int32(MSG_NOSIGNAL))
            }
        }
    }
}

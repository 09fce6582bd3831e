internal import KeyringCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One `unix:` entry of a D-Bus address: a socket file's path, or an abstract name.
struct UnixSocketName {
    /// The bytes of the name, unescaped; abstract names without their leading NUL.
    let bytes: [UInt8]
    let isAbstract: Bool

    /// `nil` for any entry but `unix:path=…` or `unix:abstract=…`, or one badly escaped.
    init?(entry: String) {
        guard entry.hasPrefix("unix:") else { return nil }
        var found: (bytes: [UInt8], abstract: Bool)?
        for pair in entry.dropFirst("unix:".count).split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            switch parts[0] {
            case "path", "abstract":
                guard found == nil, let value = Self.unescape(parts[1]) else { return nil }
                found = (value, parts[0] == "abstract")
            case "guid":
                continue
            default:
                // tmpdir=, dir=, runtime= name servers, not sockets to try.
                return nil
            }
        }
        guard let found, !found.bytes.isEmpty else { return nil }
        bytes = found.bytes
        isAbstract = found.abstract
    }

    /// D-Bus address unescaping: `%XX` is a byte; `nil` for a `%` not followed by two hex digits.
    private static func unescape(_ text: Substring) -> [UInt8]? {
        var result: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                result.append(byte)
                continue
            }
            guard let high = utf8.next()?.hexDigitValue, let low = utf8.next()?.hexDigitValue else { return nil }
            result.append(high << 4 | low)
        }
        return result
    }

    /// The name as errors show it: the path, or `abstract socket NAME`.
    var shown: String {
        let text = String(decoding: bytes, as: UTF8.self)
        return isAbstract ? "abstract socket \(text)" : text
    }

    /// A stream socket connected to this name (close-on-exec; non-blocking unless `blocking`),
    /// or `nil` and the connect's `errno` (0 when no socket could be made or the name is too long).
    func connected(blocking: Bool) -> (descriptor: Int32?, code: Int32) {
        var kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if !blocking { kind |= Int32(SOCK_NONBLOCK.rawValue) }
        let descriptor = socket(AF_UNIX, kind, 0)
        guard descriptor >= 0 else { return (nil, 0) }
        var name = sockaddr_un()
        name.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: name.sun_path)
        // An abstract name starts with a NUL; a path needs room for its closing NUL.
        let offset = isAbstract ? 1 : 0
        guard bytes.count + offset < capacity else {
            close(descriptor)
            return (nil, 0)
        }
        withUnsafeMutableBytes(of: &name.sun_path) { path in
            // sockaddr_un() is all zeros: the abstract name's leading NUL and a path's closing one are there.
            for (index, byte) in bytes.enumerated() { path[index + offset] = byte }
        }
        let length = MemoryLayout<sa_family_t>.size + bytes.count + offset + (isAbstract ? 0 : 1)
        let result = withUnsafePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(length)) }
        }
        guard result != 0 else { return (descriptor, 0) }
        let code = errno
        close(descriptor)
        return (nil, code)
    }
}

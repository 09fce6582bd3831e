import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on an IPv4 loopback address for the tests' small servers: one thread
/// accepts, one thread per connection runs `serve` and then closes the connection.
package final class LoopbackListener: Sendable {
    /// The port listened on (the system's pick when asked for 0).
    package let port: UInt16
    private let descriptor: Int32
    private let acceptLoopDone = DispatchSemaphore(value: 0)

    /// Listens on `host`:`port` until `stop()`.
    package init(host: String = "127.0.0.1", port: UInt16 = 0, serve: @escaping @Sendable (Int32) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        self.port = UInt16(bigEndian: address.sin_port)
        let done = acceptLoopDone
        Thread.detachNewThread {
            while true {
                let connection = accept(fd, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    break
                }
                Thread.detachNewThread {
                    serve(connection)
                    close(connection)
                }
            }
            done.signal()
        }
    }

    /// Stops listening (clients then get "connection refused") and waits, at most 5 s, for
    /// the accepting thread to end; a connection being answered finishes on its own thread.
    package func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        _ = acceptLoopDone.wait(timeout: .now() + 5)
    }
}

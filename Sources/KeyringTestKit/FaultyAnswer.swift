import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writes the answers of ``TestHTTPServer/Fault`` to one connection, counting the body bytes the
/// kernel took, and stopping when the client closes the connection or the server stops.
struct FaultyAnswer {
    let connection: Int32
    /// Whether to go on: `false` once the server stopped.
    let isServing: @Sendable () -> Bool
    /// Adds body bytes sent to the path's count.
    let counted: @Sendable (Int) -> Void

    /// Writes the fault's answer; `true` when the caller should answer as usual afterwards.
    func write(_ fault: TestHTTPServer.Fault) -> Bool {
        // A send blocked by a client that stopped reading wakes up now and then to see whether the server still runs.
        var limit = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        switch fault {
        case .trickle(let interval):
            guard send(head(["Content-Length: 3600"])) else { return false }
            for _ in 0..<3600 {
                guard pause(interval), send(Data("x".utf8), body: true) else { return false }
            }
        case .neverAnswer:
            waitForClose()
        case .closeWithoutAnswer:
            break
        case .hugeBody(let bytes, let declared):
            guard send(head(declared ? ["Content-Length: \(bytes)"] : [])) else { return false }
            let chunk = Data(repeating: UInt8(ascii: "x"), count: 64 << 10)
            var left = bytes
            while left > 0 {
                guard send(chunk.prefix(left), body: true) else { return false }
                left -= min(left, chunk.count)
            }
        case .endlessChunkedBody:
            guard send(head(["Transfer-Encoding: chunked"])) else { return false }
            var chunk = Data("10000\r\n".utf8)
            chunk.append(Data(repeating: UInt8(ascii: "x"), count: 0x10000))
            chunk.append(Data("\r\n".utf8))
            while send(chunk, body: true) {}
        case .answerAfter(let delay):
            return pause(delay)
        case .issueToken:
            return true
        }
        return false
    }

    private func head(_ fields: [String]) -> Data {
        let extra = fields.map { $0 + "\r\n" }.joined()
        return Data("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\(extra)Connection: close\r\n\r\n".utf8)
    }

    /// Sends all of `data`; `false` when the client closed the connection or the server stopped.
    private func send(_ data: Data, body: Bool = false) -> Bool {
        data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = Glibc.send(connection, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                    guard isServing() else { return false }
                    continue
                }
                guard count > 0 else { return false }
                if body { counted(count) }
                sent += count
            }
            return true
        }
    }

    /// Sleeps `interval` in short steps; `false` when the server stopped meanwhile.
    private func pause(_ interval: Duration) -> Bool {
        let end = ContinuousClock.now + interval
        while ContinuousClock.now < end {
            guard isServing() else { return false }
            Thread.sleep(forTimeInterval: min(0.05, max(0, (end - ContinuousClock.now).seconds)))
        }
        return isServing()
    }

    /// Waits until the client closes the connection or the server stops.
    private func waitForClose() {
        var byte: UInt8 = 0
        var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        while isServing() {
            guard poll(&ready, 1, 100) >= 0 else { return }
            if ready.revents != 0, recv(connection, &byte, 1, Int32(MSG_DONTWAIT)) <= 0 { return }
        }
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

import Foundation
import Synchronization

/// A fake etcd JSON gateway: a small HTTP/1.1 server on 127.0.0.1, in the test process, in front
/// of a real etcd member. It forwards each request and lets the test misbehave on purpose: answer
/// itself, change the member's answer, or send a body that is huge or never ends.
///
/// Each connection serves one request and is closed (`Connection: close`), so the store's client
/// connects anew each time; every request is logged, raw header lines included, for the test to
/// check what reached the "cluster".
final class FakeGateway: Sendable {
    /// What the gateway does with one request.
    enum Reply: Sendable {
        /// Forwards it to the member and passes the answer back.
        case forward
        /// Answers itself, without asking the member.
        case respond(status: Int, body: Data)
        /// Forwards it, then changes the member's status and body.
        case rewrite(@Sendable (Int, Data) -> (Int, Data))
        /// Announces `Content-Length: bytes` and sends that many bytes (or until the client leaves).
        case hugeBody(bytes: Int)
        /// A chunked body that never ends: chunks until the client leaves.
        case endlessChunked
        /// Never answers: holds the connection until the client leaves (a minute at most), as a
        /// member that has lost its quorum may, whatever the machine's load.
        case silent
    }

    /// One request as it arrived.
    struct Request: Sendable {
        /// The request target: a path, or an absolute URL when the client took the gateway for a proxy.
        var target: String
        /// The header lines, raw, without the request line.
        var headerLines: [String]
        var body: Data

        /// The path asked for, also when the target is an absolute URL.
        var path: String {
            guard target.hasPrefix("http"), let url = URL(string: target) else { return target }
            return url.path
        }
    }

    /// `http://127.0.0.1:<port>`.
    let url: URL
    private let listener: Int32
    private let upstream: URL
    private let behave: @Sendable (Request) -> Reply
    private let log = Mutex<[Request]>([])
    private let stopped = Atomic<Bool>(false)

    /// How many bytes of body `hugeBody` and `endlessChunked` have sent, all connections together:
    /// what a client that stops at its cap let through (the kernel's buffers included).
    var bodyBytesSent: Int { sentBody.load(ordering: .sequentiallyConsistent) }
    private let sentBody = Atomic<Int>(0)

    /// Every request so far, in arrival order.
    var requests: [Request] { log.withLock { $0 } }

    /// Listens on a free port of 127.0.0.1 and serves until `stop()`.
    init(upstream: URL, behave: @escaping @Sendable (Request) -> Reply = { _ in .forward }) throws {
        self.upstream = upstream
        self.behave = behave
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0 && listen(listener, 64) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard bound else { throw GatewayFailure("the fake gateway cannot listen: \(String(cString: strerror(errno)))") }
        self.listener = listener
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        let gateway = self
        Thread.detachNewThread { gateway.acceptLoop() }
    }

    deinit { stop() }

    /// Stops accepting; connections being served end when their client leaves.
    func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while !stopped.load(ordering: .sequentiallyConsistent) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in
                serve(connection)
                close(connection)
            }
        }
    }

    private func serve(_ connection: Int32) {
        guard let request = Self.readRequest(connection) else { return }
        log.withLock { $0.append(request) }
        switch behave(request) {
        case .forward:
            guard let (status, body) = forward(request) else { return }
            Self.send(connection, Self.head(status: status, length: body.count) + body)
        case .respond(let status, let body):
            Self.send(connection, Self.head(status: status, length: body.count) + body)
        case .rewrite(let change):
            guard let answer = forward(request) else { return }
            let (status, body) = change(answer.0, answer.1)
            Self.send(connection, Self.head(status: status, length: body.count) + body)
        case .hugeBody(let bytes):
            guard Self.send(connection, Self.head(status: 200, length: bytes)) else { return }
            let chunk = Data(repeating: UInt8(ascii: "a"), count: 1 << 16)
            var sent = 0
            while sent < bytes, Self.send(connection, chunk.prefix(bytes - sent)) {
                sent += chunk.count
                sentBody.add(chunk.count, ordering: .sequentiallyConsistent)
            }
        case .endlessChunked:
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            guard Self.send(connection, Data(head.utf8)) else { return }
            let chunk = Data("10000\r\n".utf8) + Data(repeating: UInt8(ascii: "a"), count: 1 << 16) + Data("\r\n".utf8)
            // At most 8 GiB, so a client that never stops cannot keep this thread forever.
            for _ in 0..<(1 << 17) where !stopped.load(ordering: .sequentiallyConsistent) {
                guard Self.send(connection, chunk) else { return }
                sentBody.add(chunk.count, ordering: .sequentiallyConsistent)
            }
        case .silent:
            // The client leaving shows as the end of the connection (or an error) on a read.
            var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            var byte: UInt8 = 0
            for _ in 0..<600 where !stopped.load(ordering: .sequentiallyConsistent) {
                guard poll(&ready, 1, 100) >= 0 || errno == EINTR else { return }
                if ready.revents != 0, recv(connection, &byte, 1, 0) <= 0 { return }
            }
        }
    }

    /// Asks the member, as HTTP/1.0 so its answer is delimited by the end of the connection.
    private func forward(_ request: Request) -> (Int, Data)? {
        let member = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(member) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(upstream.host ?? "127.0.0.1")
        address.sin_port = UInt16(upstream.port ?? 2379).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(member, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return nil }
        var head = "POST \(request.path) HTTP/1.0\r\nHost: \(upstream.host ?? ""):\(upstream.port ?? 0)\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(request.body.count)\r\n"
        for line in request.headerLines where line.lowercased().hasPrefix("authorization:") { head += line + "\r\n" }
        guard Self.send(member, Data((head + "\r\n").utf8) + request.body) else { return nil }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(member, &buffer, buffer.count, 0)
            if count <= 0 { break }
            answer.append(contentsOf: buffer[0..<count])
        }
        guard let split = answer.range(of: Data("\r\n\r\n".utf8)),
            let statusLine = String(data: answer[..<split.lowerBound], encoding: .utf8)?.split(separator: "\r\n").first,
            let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return (status, Data(answer[split.upperBound...]))
    }

    private static func head(status: Int, length: Int) -> Data {
        Data(
            "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n"
                .utf8)
    }

    /// Reads one request: its head up to the blank line, then `Content-Length` bytes of body.
    private static func readRequest(_ connection: Int32) -> Request? {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var headEnd: Range<Data.Index>?
        var length = 0
        while true {
            if headEnd == nil, let end = received.range(of: Data("\r\n\r\n".utf8)) {
                headEnd = end
                let lines = String(decoding: received[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                for line in lines where line.lowercased().hasPrefix("content-length:") {
                    length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            if let headEnd, received.count - headEnd.upperBound >= length {
                let lines = String(decoding: received[..<headEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let target = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                return Request(
                    target: target, headerLines: Array(lines.dropFirst()),
                    body: Data(received[headEnd.upperBound..<(headEnd.upperBound + length)]))
            }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
    }

    /// Sends all of `data`; `false` once the peer has gone (no SIGPIPE).
    @discardableResult
    private static func send(_ connection: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = Glibc.send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if count <= 0 {
                    if count < 0 && errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
    }
}

struct GatewayFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension FakeGateway {
    /// How many requests `gateways` received, together, once none has come for 0.5 s (30 s at
    /// most): a request sent just as a call gave up is logged by its gateway's thread a moment
    /// later, and belongs to that call, not the next one a test counts.
    static func settledCount(_ gateways: [FakeGateway]) -> Int {
        func count() -> Int { gateways.map { $0.requests.count }.reduce(0, +) }
        var counted = count()
        var quiet = ContinuousClock.now
        let end = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now - quiet < .milliseconds(500), ContinuousClock.now < end {
            Thread.sleep(forTimeInterval: 0.05)
            if count() != counted { (counted, quiet) = (count(), .now) }
        }
        return counted
    }

    /// Decodes a gateway JSON body, for tests that change answers.
    static func object(_ body: Data) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    /// Encodes a JSON object as a body.
    static func body(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }
}

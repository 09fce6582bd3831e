import Foundation
import KeyringTestKit
import KeyringTestSupport
import Synchronization

/// A loopback HTTP server for git's "dumb" protocol: it serves the files of one folder
/// (a bare repository after `git update-server-info`) to requests that carry Basic
/// authentication with the one right username and password, and answers 401 with a
/// `WWW-Authenticate` challenge otherwise, so git asks its credential helpers.
final class DumbHTTPServer: Sendable {
    private let root: URL
    private let expectedAuthorization: String
    private let listener = Mutex<LoopbackListener?>(nil)
    var port: UInt16 { listener.withLock { $0?.port ?? 0 } }
    private let authorizations = Mutex<[String]>([])

    init(serving root: URL, username: String, password: String) throws {
        self.root = root
        expectedAuthorization = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        let listener = try LoopbackListener { [self] connection in serve(connection) }
        self.listener.withLock { $0 = listener }
    }

    /// Stops accepting; a connection being answered finishes on its own thread.
    func stop() {
        listener.withLock { $0 }?.stop()
    }

    /// Every `Authorization` header received, in order (`""` for a request without one).
    var receivedAuthorizations: [String] { authorizations.withLock { $0 } }

    private func serve(_ connection: Int32) {
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var head = Data()
        var byte: UInt8 = 0
        while !head.hasSuffix("\r\n\r\n") {
            guard read(connection, &byte, 1) == 1, head.count < 64 * 1024 else { return }
            head.append(byte)
        }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return }
        let target = String(requestLine[1]).split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let authorization =
            lines.dropFirst().first { $0.lowercased().hasPrefix("authorization:") }
            .map { String($0.dropFirst("authorization:".count)).trimmingCharacters(in: .whitespaces) } ?? ""
        authorizations.withLock { $0.append(authorization) }
        guard authorization == expectedAuthorization else {
            respond(connection, status: "401 Unauthorized", headers: ["WWW-Authenticate: Basic realm=\"test\""], body: Data())
            return
        }
        let file = root.appendingPathComponent(String(target.dropFirst()))
        guard !target.contains(".."), let body = try? Data(contentsOf: file) else {
            respond(connection, status: "404 Not Found", headers: [], body: Data())
            return
        }
        respond(connection, status: "200 OK", headers: ["Content-Type: application/octet-stream"], body: body)
    }

    private func respond(_ connection: Int32, status: String, headers: [String], body: Data) {
        let head =
            (["HTTP/1.1 \(status)", "Content-Length: \(body.count)", "Connection: close"] + headers)
            .joined(separator: "\r\n") + "\r\n\r\n"
        let bytes = Data(head.utf8) + body
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { return }
                offset += sent
            }
        }
    }
}

extension Data {
    fileprivate func hasSuffix(_ text: String) -> Bool {
        let suffix = Data(text.utf8)
        return count >= suffix.count && self.suffix(suffix.count) == suffix
    }
}

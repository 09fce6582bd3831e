import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One HTTP/1.1 request as ``TestHTTPServer`` reads it, and the writing of its answer.
struct HTTPMessage {
    var method: String
    var path: String
    /// Header values by lower-cased name.
    var headers: [String: String]
    var body: Data

    /// Reads a request head and its `Content-Length` body; `nil` when the peer sends no whole request.
    static func read(from connection: Int32) -> HTTPMessage? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let separator = Data("\r\n\r\n".utf8)
        var headEnd: Range<Data.Index>?
        while headEnd == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
            headEnd = buffer.range(of: separator)
        }
        guard let headEnd, let head = String(data: buffer[..<headEnd.lowerBound], encoding: .utf8) else { return nil }
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = headers["content-length"].flatMap(Int.init) ?? 0
        var body = Data(buffer[headEnd.upperBound...])
        while body.count < length {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            body.append(contentsOf: chunk[0..<count])
        }
        let target = String(requestLine[1])
        let path = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? target
        return HTTPMessage(method: String(requestLine[0]), path: path, headers: headers, body: body)
    }

    /// Writes a whole answer with `Connection: close` and `headers`.
    static func write(status: Int, body: Data, headers: [String: String] = [:], to connection: Int32) {
        let reason =
            [200: "OK", 302: "Found", 401: "Unauthorized", 404: "Not Found", 500: "Internal Server Error"][status] ?? "Status"
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        var message = Data(
            "HTTP/1.1 \(status) \(reason)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\(extra)Connection: close\r\n\r\n"
                .utf8)
        message.append(body)
        message.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = send(connection, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { return }
                sent += count
            }
        }
    }
}

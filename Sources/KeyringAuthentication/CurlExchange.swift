internal import CCurl
import Foundation
import Synchronization

/// One request and its answer on libcurl, driven on the calling thread (never a cooperative one):
/// the body is kept up to a limit in libcurl's write callback, which ends the transfer at once
/// past it, and libcurl's own timeout covers the whole exchange, last byte included.
///
/// The multi interface is used so the wait is in `curl_multi_poll`, which ``cancel()`` wakes from
/// any thread with `curl_multi_wakeup`.
final class CurlExchange: Sendable {
    /// How one exchange ended.
    enum Outcome {
        /// The server answered: the status line's code and reason, the header lines, the body.
        case answered(status: Int, reason: String, fields: [(String, String)], body: Data)
        /// The body passed `limit` bytes, or its length said it would; the transfer was stopped there.
        case tooLarge(limit: Int)
        /// The whole answer did not come in time.
        case timedOut
        /// libcurl's code and its words, which quote no URL.
        case failed(code: Int, words: String)
        /// ``cancel()`` was called.
        case cancelled
    }

    private struct Handles: @unchecked Sendable {
        let easy: UnsafeMutableRawPointer
        let multi: UnsafeMutableRawPointer
    }

    private let handles: Handles
    private let cancelled = Atomic(false)

    /// Makes the handles; loads libcurl first, once a process.
    /// - Throws: ``TransportError`` of kind `.other` when libcurl cannot be loaded.
    init() throws {
        if let reason = swift_keyring_curl_load() {
            throw TransportError(.other, reason: String(cString: reason))
        }
        guard let easy = swift_keyring_curl_easy_init(), let multi = swift_keyring_curl_multi_init() else {
            throw TransportError(.other, reason: "libcurl could not make a handle")
        }
        handles = Handles(easy: easy, multi: multi)
    }

    deinit {
        swift_keyring_curl_multi_cleanup(handles.multi)
        swift_keyring_curl_easy_cleanup(handles.easy)
    }

    /// Ends a running `perform` soon, from any thread.
    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        swift_keyring_curl_multi_wakeup(handles.multi)
    }

    /// Sends `method` to `url` with `headers` (whole lines) and `body`, and waits for the whole answer.
    func perform(method: String, url: URL, headers: [String], body: Data?, limit: Int, timeout: Duration) -> Outcome {
        let easy = handles.easy
        swift_keyring_curl_easy_reset(easy)
        let answer = Answer(limit: limit)
        let milliseconds = timeout.inMillisecondsRoundedUp
        swift_keyring_curl_setopt_pointer(easy, CURLOPT_URL, url.absoluteString)
        swift_keyring_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        swift_keyring_curl_setopt_long(easy, CURLOPT_PROTOCOLS, Int(CURLPROTO_HTTP | CURLPROTO_HTTPS))
        swift_keyring_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, milliseconds)
        // Redirects are the transport's to follow, within the origin only.
        swift_keyring_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        // An answer that announces more than the limit is refused before its body is read; one that
        // does not (chunked, or ended by closing) is stopped by the write callback.
        swift_keyring_curl_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit))
        // Any encoding libcurl can undo; the limit counts the bytes as the caller gets them.
        swift_keyring_curl_setopt_pointer(easy, CURLOPT_ACCEPT_ENCODING, "")
        if method == "HEAD" {
            swift_keyring_curl_setopt_long(easy, CURLOPT_NOBODY, 1)
        } else if let body {
            swift_keyring_curl_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            // COPYPOSTFIELDS copies the bytes; an empty body still needs a pointer.
            (body.isEmpty ? Data([0]) : body).withUnsafeBytes {
                _ = swift_keyring_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress)
            }
        }
        if method != "GET" || body != nil {
            swift_keyring_curl_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, method)
        }
        var list: UnsafeMutablePointer<curl_slist>? = nil
        // No "Expect: 100-continue" (a round trip more), and no form content type the app did not ask for.
        for line in headers + ["Expect:"]
            + (headers.contains { $0.lowercased().hasPrefix("content-type:") } ? [] : ["Content-Type:"])
        {
            list = swift_keyring_curl_slist_append(list, line)
        }
        defer { swift_keyring_curl_slist_free_all(list) }
        swift_keyring_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, list)
        let context = Unmanaged.passUnretained(answer).toOpaque()
        swift_keyring_curl_setopt_write_function(easy) { data, size, count, context in
            guard let context, let data else { return 0 }
            let answer = Unmanaged<Answer>.fromOpaque(context).takeUnretainedValue()
            guard answer.body.count + size * count <= answer.limit else {
                // Anything but size * count ends the transfer at once, with CURLE_WRITE_ERROR.
                answer.overflowed = true
                return 0
            }
            data.withMemoryRebound(to: UInt8.self, capacity: size * count) { answer.body.append($0, count: size * count) }
            return size * count
        }
        swift_keyring_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        swift_keyring_curl_setopt_header_function(easy) { data, size, count, context in
            guard let context, let data else { return 0 }
            let answer = Unmanaged<Answer>.fromOpaque(context).takeUnretainedValue()
            answer.take(headerLine: UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }
        swift_keyring_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        return withExtendedLifetime(answer) { drive(answer, until: ContinuousClock.now + timeout) }
    }

    /// Drives the transfer until it ends, `end` passes or ``cancel()`` is called.
    private func drive(_ answer: Answer, until end: ContinuousClock.Instant) -> Outcome {
        let (easy, multi) = (handles.easy, handles.multi)
        swift_keyring_curl_multi_add_handle(multi, easy)
        defer { swift_keyring_curl_multi_remove_handle(multi, easy) }
        while true {
            var running: Int32 = 0
            swift_keyring_curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            if let message = swift_keyring_curl_multi_info_read(multi, &queued), message.pointee.msg == CURLMSG_DONE {
                return outcome(message.pointee.data.result, answer)
            }
            if cancelled.load(ordering: .sequentiallyConsistent) { return .cancelled }
            let left = end - ContinuousClock.now
            guard left > .zero else { return .timedOut }
            swift_keyring_curl_multi_poll(multi, nil, 0, Int32(min(left.inMilliseconds + 1, 1000)), nil)
        }
    }

    private func outcome(_ code: CURLcode, _ answer: Answer) -> Outcome {
        if answer.overflowed || code == CURLE_FILESIZE_EXCEEDED { return .tooLarge(limit: answer.limit) }
        switch code {
        case CURLE_OK:
            var status = 0
            swift_keyring_curl_getinfo_long(handles.easy, CURLINFO_RESPONSE_CODE, &status)
            return .answered(status: status, reason: answer.reason, fields: answer.fields, body: answer.body)
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        default:
            return .failed(code: Int(code.rawValue), words: String(cString: swift_keyring_curl_easy_strerror(code)))
        }
    }
}

/// What libcurl's callbacks gather of one answer, on the thread that drives the transfer.
private final class Answer {
    let limit: Int
    var body = Data()
    var overflowed = false
    var reason = ""
    var fields: [(String, String)] = []

    init(limit: Int) { self.limit = limit }

    /// One header line; a status line starts the fields anew (after a 100 Continue, say).
    func take(headerLine bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            fields = []
            reason = line.split(separator: " ", maxSplits: 2).dropFirst(2).first.map(String.init) ?? ""
        } else if let colon = line.firstIndex(of: ":") {
            fields.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
    }
}

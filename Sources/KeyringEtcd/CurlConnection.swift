internal import CCurl
import SwiftKeyring
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One libcurl handle pair (an easy handle inside its own multi handle) that makes
/// HTTP/1.1 POSTs, keeping its connection to a member open between calls.
///
/// The multi interface is used so a call waits in `curl_multi_poll`, which another
/// thread can wake with `curl_multi_wakeup`: that is how a cancelled operation ends
/// its wait at once. The store keeps a pool of these, one in use per calling thread.
final class CurlConnection: @unchecked Sendable {
    // Used by one thread at a time: the pool hands a connection to one caller only.
    private let easy: UnsafeMutableRawPointer
    private let multi: UnsafeMutableRawPointer

    /// How one exchange ended.
    enum Outcome {
        /// The server answered, with this status and body.
        case answered(status: Int, body: Data)
        /// The answer's body grew past `limit` bytes (or its length said it would), and the transfer was stopped there.
        case tooLarge(limit: Int)
        /// No answer within the bound.
        case timedOut
        /// The connection could not be made or broke; the reason names no secret.
        case failed(String)
    }

    /// Loads libcurl (once a process) and runs its global set-up; the etcd store calls it when it
    /// opens, so a machine without libcurl hears why at once instead of at the first call.
    /// - Throws: `KeyringError.backend` in the domain `libcurl`, with the loader's reason.
    static func loadLibrary() throws {
        if let reason = swift_keyring_curl_load() {
            throw KeyringError.backend(domain: "libcurl", code: 0, message: String(cString: reason))
        }
    }

    init() throws {
        try Self.loadLibrary()
        guard let easy = swift_keyring_curl_easy_init(), let multi = swift_keyring_curl_multi_init() else {
            throw KeyringError.backend(domain: "libcurl", code: 0, message: "libcurl could not make a handle")
        }
        self.easy = easy
        self.multi = multi
    }

    deinit {
        swift_keyring_curl_multi_cleanup(multi)
        swift_keyring_curl_easy_cleanup(easy)
    }

    /// Posts `body` to `url` and waits for the whole answer until the call's deadline at the latest.
    /// - Parameters:
    ///   - headers: whole header lines; each must pass `HeaderValue.check` (the caller's values were checked where they came from).
    ///   - limit: the most bytes of body kept; a longer answer ends the transfer at once, as `.tooLarge`.
    ///   - proxy: the proxy URL to use, or `nil` for none: the `http_proxy` family of variables is never read.
    /// - Throws: `CancellationError` when the call is cancelled meanwhile.
    func post(
        _ url: URL, body: Data, headers: [String], call: StoreCall, tls: EtcdTLS, proxy: URL?, limit: Int
    ) throws -> Outcome {
        swift_keyring_curl_easy_reset(easy)  // options only: the open connection and the TLS session stay
        let response = ResponseBody(limit: limit)
        // libcurl's own bound is what is left of the call's now, so no transfer outlives the call
        // by more than a millisecond, nor ends before it with time apparently left; at least 1 ms,
        // since 0 would mean no bound at all.
        let milliseconds = call.deadline.remaining.inMillisecondsRoundedUp
        swift_keyring_curl_setopt_pointer(easy, CURLOPT_URL, url.absoluteString)
        swift_keyring_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        swift_keyring_curl_setopt_long(easy, CURLOPT_PROTOCOLS, Int(CURLPROTO_HTTP | CURLPROTO_HTTPS))
        swift_keyring_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, milliseconds)
        swift_keyring_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        swift_keyring_curl_setopt_long(easy, CURLOPT_POSTFIELDSIZE, body.count)
        // An answer that announces more than the limit is refused before its body is read;
        // one that does not (chunked) is stopped by the write callback below.
        swift_keyring_curl_setopt_long(easy, CURLOPT_MAXFILESIZE, limit)
        // An empty proxy tells libcurl to use none, whatever http_proxy, https_proxy or all_proxy
        // say: the proxy in a login environment would otherwise see every request, and on http://
        // the etcd password and token in it.
        swift_keyring_curl_setopt_pointer(easy, CURLOPT_PROXY, proxy?.absoluteString ?? "")
        body.withUnsafeBytes { _ = swift_keyring_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        // No "Expect: 100-continue": it costs a round trip (or a second) on larger bodies.
        // The last line of defence: a value that reached here unchecked is refused, never sent.
        for header in headers {
            let value = header.split(separator: ":", maxSplits: 1).dropFirst().first.map { String($0.drop { $0 == " " }) } ?? ""
            if let problem = HeaderValue.problem(value) {
                throw KeyringError.backend(domain: "etcd", code: 0, message: "a request header was not sent: \(problem)")
            }
        }
        var list: UnsafeMutablePointer<curl_slist>? = nil
        for header in headers + ["Content-Type: application/json", "Expect:"] {
            list = swift_keyring_curl_slist_append(list, header)
        }
        defer { swift_keyring_curl_slist_free_all(list) }
        swift_keyring_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, list)
        swift_keyring_curl_setopt_write_function(
            easy,
            { data, size, count, context in
                guard let context, let data else { return 0 }
                let body = Unmanaged<ResponseBody>.fromOpaque(context).takeUnretainedValue()
                guard body.bytes.count + size * count <= body.limit else {
                    // Anything but size * count ends the transfer with CURLE_WRITE_ERROR.
                    body.overflowed = true
                    return 0
                }
                body.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count))
                return size * count
            })
        swift_keyring_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(response).toOpaque())
        if let ca = tls.caFile { swift_keyring_curl_setopt_pointer(easy, CURLOPT_CAINFO, ca.path) }
        if let certificate = tls.certificateFile { swift_keyring_curl_setopt_pointer(easy, CURLOPT_SSLCERT, certificate.path) }
        if let key = tls.keyFile { swift_keyring_curl_setopt_pointer(easy, CURLOPT_SSLKEY, key.path) }

        return try withExtendedLifetime(response) {
            try perform(call, response: response)
        }
    }

    private func perform(_ call: StoreCall, response: ResponseBody) throws -> Outcome {
        swift_keyring_curl_multi_add_handle(multi, easy)
        defer { swift_keyring_curl_multi_remove_handle(multi, easy) }
        let multi = UnsafeMultiHandle(multi)
        return try call.withCancellationHandler {
            try wait(call, multi, response: response)
        } onCancel: {
            swift_keyring_curl_multi_wakeup(multi.pointer)
        }
    }

    /// Drives the transfer until it ends, the deadline passes or the call is cancelled.
    private func wait(_ call: StoreCall, _ multi: UnsafeMultiHandle, response: ResponseBody) throws -> Outcome {
        while true {
            var running: Int32 = 0
            swift_keyring_curl_multi_perform(multi.pointer, &running)
            var queued: Int32 = 0
            if let message = swift_keyring_curl_multi_info_read(multi.pointer, &queued), message.pointee.msg == CURLMSG_DONE {
                return outcome(message.pointee.data.result, response: response)
            }
            try call.checkCancellation()
            let left = call.deadline.remaining
            guard left > .zero else { return .timedOut }
            let wait = Int32(min(left.inMilliseconds + 1, 1000))
            swift_keyring_curl_multi_poll(multi.pointer, nil, 0, wait, nil)
        }
    }

    private func outcome(_ code: CURLcode, response: ResponseBody) -> Outcome {
        if response.overflowed || code == CURLE_FILESIZE_EXCEEDED {
            return .tooLarge(limit: response.limit)
        }
        switch code {
        case CURLE_OK:
            var status = 0
            swift_keyring_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            return .answered(status: status, body: Data(response.bytes))
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_COULDNT_CONNECT:
            return .failed("connection refused")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
            return .failed(
                "the member's TLS certificate is not trusted (\(String(cString: swift_keyring_curl_easy_strerror(code))))")
        default:
            return .failed(String(cString: swift_keyring_curl_easy_strerror(code)))
        }
    }
}

/// The bytes of one answer, appended by libcurl's write callback on the calling thread, up to `limit`.
private final class ResponseBody {
    let limit: Int
    var bytes: [UInt8] = []
    /// Whether the callback refused bytes past `limit`.
    var overflowed = false

    init(limit: Int) { self.limit = limit }
}

/// The multi handle, for the cancellation handler: `curl_multi_wakeup` is the one
/// libcurl call documented as safe from any thread.
private struct UnsafeMultiHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}

/// Connections not in use, so a store's calls from many threads each get one and
/// a healthy cluster costs no new TCP (or TLS) handshake per call.
final class CurlConnectionPool: Sendable {
    private let idle = Mutex<[CurlConnection]>([])
    /// More than this many idle connections are closed rather than kept.
    private static let keep = 8

    /// Runs `body` with a connection of its own, then keeps the connection for the next call.
    func withConnection<Result>(_ body: (CurlConnection) throws -> Result) throws -> Result {
        let connection = try idle.withLock { $0.popLast() } ?? CurlConnection()
        defer {
            idle.withLock { connections in
                if connections.count < Self.keep { connections.append(connection) }
            }
        }
        return try body(connection)
    }
}

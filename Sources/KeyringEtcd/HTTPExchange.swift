import Dispatch
import Foundation
import Keyring
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP POST through URLSession, waited for on the caller's thread within a bound,
/// and abandoned at once when the operation bound to the thread is cancelled.
///
/// The store's calls are synchronous; URLSession answers on its own delegate queue,
/// so the caller blocks on a semaphore (never on Swift concurrency's threads, since
/// the async face runs stores on the library's own).
enum HTTPExchange {
    /// How one exchange ended.
    enum Outcome {
        /// The server answered, with this status and body.
        case answered(status: Int, body: Data)
        /// No answer within the bound.
        case timedOut
        /// The connection could not be made or broke; the reason names no secret.
        case failed(String)
    }

    /// Posts `body` to `url` and waits at most `seconds` for the answer.
    /// - Throws: `CancellationError` when the operation bound to this thread is cancelled meanwhile.
    static func post(
        _ url: URL, body: Data, headers: [String: String], seconds: Double, session: URLSession
    ) throws -> Outcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: max(seconds, 0.05))
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }

        let result = Mutex<Outcome?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            let outcome: Outcome
            if let response = response as? HTTPURLResponse, error == nil {
                outcome = .answered(status: response.statusCode, body: data ?? Data())
            } else if let error = error as? URLError, error.code == .timedOut {
                outcome = .timedOut
            } else {
                outcome = .failed(Self.reason(error))
            }
            result.withLock { $0 = outcome }
            finished.signal()
        }
        let cancellation = OperationCancellation.current
        let registration = cancellation?.register { task.cancel() }
        defer { cancellation?.unregister(registration) }
        task.resume()
        if finished.wait(timeout: .now() + seconds) == .timedOut {
            task.cancel()
            try OperationCancellation.check()
            return .timedOut
        }
        try OperationCancellation.check()
        return result.withLock { $0 } ?? .timedOut
    }

    /// The error's kind in words: URLSession's descriptions can quote the URL, never a secret,
    /// but a code is what a person can act on.
    private static func reason(_ error: (any Error)?) -> String {
        guard let error = error as? URLError else { return error.map { "\($0)" } ?? "no answer" }
        switch error.code {
        case .cannotConnectToHost: return "connection refused"
        case .networkConnectionLost: return "the connection was lost"
        case .cannotFindHost, .dnsLookupFailed: return "the host name does not resolve"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "the TLS connection failed (is the member's CA in the system trust store?)"
        case .cancelled: return "cancelled"
        default: return "URL error \(error.code.rawValue)"
        }
    }
}

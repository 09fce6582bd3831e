import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of ``URLSessionTransport``'s session: it reads each answer as it arrives,
/// stops at the answer limit, and follows redirects only within the request's origin.
///
/// The session's delegate, not a task's: FoundationNetworking hands the body piece by
/// piece only to a session delegate (a task with a completion handler gets it whole, at
/// the end, and a task's own `delegate` is asked only about redirects), and a limit that
/// is checked at the end holds nothing back. Data that comes after a task was ended
/// (too long, cancelled, out of time) is dropped as it arrives.
final class AnswerReader: NSObject, URLSessionDataDelegate, Sendable {
    typealias Answer = (HTTPResponse, Data)

    /// One answer being read.
    private struct Reading {
        var continuation: CheckedContinuation<Answer, any Error>
        var limit: Int
        var response: HTTPURLResponse?
        var body = Data()
        /// What `body` was last reserved for, never above `limit`, so growth never doubles past it.
        var reserved = 0

        /// Appends `data`, or returns the limit it would exceed.
        mutating func take(_ data: Data) -> Int? {
            let needed = body.count + data.count
            guard needed <= limit else { return limit }
            if needed > reserved {
                reserved = min(limit, max(needed, reserved * 2))
                body.reserveCapacity(reserved)
            }
            body.append(data)
            return nil
        }
    }

    private let readings = Mutex<[Int: Reading]>([:])

    /// Sends `request` on `session` (whose delegate is this reader) and reads the answer, at most `limit` bytes of body.
    /// - Throws: ``TransportError`` (`.answerTooLarge` past the limit), `URLError` from the session,
    ///   `CancellationError` when the calling task is cancelled (the answer is not waited for then).
    func answer(to request: HTTPRequest, body: Data?, limit: Int, on session: URLSession) async throws -> Answer {
        guard let urlRequest = URLRequest(httpRequest: request) else { throw URLError(.badURL) }
        let task = body.map { session.uploadTask(with: urlRequest, from: $0) } ?? session.dataTask(with: urlRequest)
        let id = task.taskIdentifier
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                readings.withLock { $0[id] = Reading(continuation: continuation, limit: limit) }
                if Task.isCancelled {
                    end(id, task: task, with: .failure(CancellationError()))
                } else {
                    task.resume()
                }
            }
        } onCancel: {
            end(id, task: task, with: .failure(CancellationError()))
        }
    }

    /// Resumes the reading of task `id` with `result`, once, and cancels the task when it still runs.
    private func end(_ id: Int, task: URLSessionTask?, with result: Result<Answer, any Error>) {
        guard let reading = readings.withLock({ $0.removeValue(forKey: id) }) else { return }
        if let task, task.state == .running || task.state == .suspended {
            // Off the delegate's queue: cancelling from a delegate callback left the transfer running.
            DispatchQueue.global().async { task.cancel() }
        }
        reading.continuation.resume(with: result)
    }

    private func tooLarge(_ limit: Int) -> TransportError {
        TransportError(.answerTooLarge, reason: "the answer is longer than the limit of \(limit) bytes (answerLimit)")
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let id = dataTask.taskIdentifier
        let declared = response.expectedContentLength
        let limit: Int? = readings.withLock { readings in
            guard var reading = readings[id] else { return nil }
            reading.response = response as? HTTPURLResponse
            if declared > 0, declared <= Int64(reading.limit) {
                reading.reserved = Int(declared)
                reading.body.reserveCapacity(reading.reserved)
            }
            readings[id] = reading
            return reading.limit
        }
        guard let limit else {
            completionHandler(.cancel)
            return
        }
        if declared > Int64(limit) {
            completionHandler(.cancel)
            end(id, task: dataTask, with: .failure(tooLarge(limit)))
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        let overLimit: Int? = readings.withLock { readings in
            // In place (`readings[id]!`): a copy of the reading would share its body and copy it on append.
            guard readings[id] != nil else { return nil }
            return readings[id]!.take(data)
        }
        if let overLimit {
            end(id, task: dataTask, with: .failure(tooLarge(overLimit)))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        let reading = readings.withLock { $0[id] }
        guard let reading else { return }
        if let error {
            let failure = (error as? URLError).map {
                URLSessionTransport.transportError($0, answerBegun: reading.response != nil)
            }
            end(id, task: nil, with: .failure(failure ?? error))
            return
        }
        guard let response = (reading.response ?? task.response as? HTTPURLResponse)?.httpResponse else {
            end(
                id, task: nil,
                with: .failure(URLSessionTransport.transportError(URLError(.badServerResponse), answerBegun: false)))
            return
        }
        end(id, task: nil, with: .success((response, reading.body)))
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(SameOriginRedirects.follows(task: task, to: request) ? request : nil)
    }
}

import Foundation
import HTTPTypes
import HTTPTypesFoundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// Sends `request` (with `body`, when given) on a task whose own delegate is `SameOriginRedirects`.
    ///
    /// The task is made and its `delegate` set by hand because FoundationNetworking
    /// does not consult the delegate passed to `data(for:delegate:)` on a redirect;
    /// a task's `delegate` property it does, ahead of the session's delegate.
    func sameOriginResponse(for request: HTTPRequest, body: Data?, redirects: SameOriginRedirects) async throws -> (
        HTTPResponse, Data
    ) {
        guard let urlRequest = URLRequest(httpRequest: request) else { throw URLError(.badURL) }
        let running = RunningTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let finish: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response = (response as? HTTPURLResponse)?.httpResponse {
                        continuation.resume(returning: (response, data ?? Data()))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                let task =
                    body.map { uploadTask(with: urlRequest, from: $0, completionHandler: finish) }
                    ?? dataTask(with: urlRequest, completionHandler: finish)
                task.delegate = redirects
                running.start(task)
            }
        } onCancel: {
            running.cancel()
        }
    }
}

/// The task of one request, and whether it was cancelled before it started.
private final class RunningTask: Sendable {
    private let state = Mutex<(task: URLSessionTask?, cancelled: Bool)>((nil, false))

    func start(_ task: URLSessionTask) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        task.resume()
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}

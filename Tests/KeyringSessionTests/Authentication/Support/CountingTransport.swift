import Foundation
import HTTPTypes
import KeyringAuthentication
import KeyringSession
import Synchronization

/// The real `CurlTransport`, counting how often the client called it (refused
/// connections included), and running `beforeSend` with the count before each call and
/// `afterSend` after each answer, so a test can act at a given attempt (start the server
/// for the second) or between the server's answer and the client seeing it.
final class CountingTransport: HTTPTransport {
    private let base: CurlTransport
    private let count = Mutex(0)
    private let beforeSend: @Sendable (Int) throws -> Void
    private let afterSend: @Sendable (Int) async throws -> Void

    init(
        timeout: Duration = AuthFixture.hangBound, beforeSend: @escaping @Sendable (Int) throws -> Void = { _ in },
        afterSend: @escaping @Sendable (Int) async throws -> Void = { _ in }
    ) {
        base = CurlTransport(timeout: timeout)
        self.beforeSend = beforeSend
        self.afterSend = afterSend
    }

    var sends: Int { count.withLock { $0 } }

    func send(_ request: HTTPRequest, body: Data?) async throws -> (HTTPResponse, Data) {
        let number = count.withLock { count in
            count += 1
            return count
        }
        try beforeSend(number)
        let answer = try await base.send(request, body: body)
        try await afterSend(number)
        return answer
    }
}

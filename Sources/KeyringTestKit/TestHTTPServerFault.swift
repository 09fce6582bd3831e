extension TestHTTPServer {
    /// A way for ``TestHTTPServer`` to misbehave at one path, as a flaky or hostile backend
    /// would, so an app can test its own client against it (``TestHTTPServer/inject(_:at:)``).
    ///
    /// ```swift
    /// server.inject(.endlessChunkedBody, at: "/data")
    /// await #expect(throws: TransportError.self) { try await client.send(request("/data")) }
    /// #expect(await server.waitUntilIdle())           // the client closed the connection
    /// #expect(server.bodyBytesSent(at: "/data") < 64 << 20)
    /// ```
    public enum Fault: Sendable, Hashable {
        /// Sends the head at once (`Content-Length: 3600`), then the body one byte every `interval`.
        case trickle(every: Duration)
        /// Reads the request and never answers; the connection stays open until the client
        /// closes it or the server stops.
        case neverAnswer
        /// Reads the request and closes the connection without a byte of answer.
        case closeWithoutAnswer
        /// Answers 200 with `bytes` bytes of body, as fast as the client reads them. With
        /// `declared`, `Content-Length` says how many; without, the body ends when the connection closes.
        case hugeBody(bytes: Int, declared: Bool)
        /// Answers 200 with a chunked body that never ends.
        case endlessChunkedBody
        /// Handles the request as usual (a login issues its token, the request is counted) and
        /// sends the answer only after `delay`, as a server does that carried a request out but
        /// answered too late.
        case answerAfter(Duration)
        /// `POST /login` only: the credentials are checked as usual and, when accepted, `token` is
        /// issued, whatever its characters (CR LF, say) or length.
        case issueToken(String)
    }
}

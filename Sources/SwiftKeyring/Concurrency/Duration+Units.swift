extension Duration {
    /// The duration in seconds, for APIs and messages that count in seconds
    /// (`DispatchTime`, ``KeyringError/timedOut(operation:seconds:)``).
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, for log lines.
    package var inMilliseconds: Int {
        Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }

    /// The duration in whole milliseconds, rounded up, at least 1: for bounds handed to APIs that
    /// count in milliseconds (libcurl's `CURLOPT_TIMEOUT_MS`). Rounded down, such a bound ends up
    /// to a millisecond before the deadline it stands for, and the caller, finding time left,
    /// starts another attempt it cannot finish (an etcd member asked with a millisecond to go).
    package var inMillisecondsRoundedUp: Int {
        let partial = components.attoseconds % 1_000_000_000_000_000 > 0 ? 1 : 0
        return max(inMilliseconds + partial, 1)
    }
}

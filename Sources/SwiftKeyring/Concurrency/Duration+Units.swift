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
}

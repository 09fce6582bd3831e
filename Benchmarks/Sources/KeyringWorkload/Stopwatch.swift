/// Wall-clock time per operation, in microseconds, on the monotonic clock.
public enum Stopwatch {
    /// Runs `body` once and divides its wall time by `operations`.
    public static func microsecondsPerOperation(_ operations: Int, _ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let elapsed = try clock.measure(body)
        let micros = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        return micros / Double(max(operations, 1))
    }
}

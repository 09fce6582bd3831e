import SwiftKeyring

/// What the async face adds to a lookup: sync and async lookups of the same
/// records, interleaved in one process, so both see the same daemon, file and
/// machine load (separate runs on a shared 2-core machine differ by more than
/// the overhead measured).
public enum AsyncOverhead {
    /// The median microseconds of a sync and of an async `credentials(forKey:)`, alternating
    /// which goes first, over records `0..<count`, `rounds` times.
    /// - Throws: `WorkloadFailure` when a record is missing or wrong.
    public static func medians(_ count: Int, rounds: Int, in keyring: Keyring) async throws -> (sync: Double, async: Double) {
        var syncTimes: [Double] = []
        var asyncTimes: [Double] = []
        let clock = ContinuousClock()
        for round in 0..<rounds {
            for index in 0..<count {
                let syncFirst = (round + index) % 2 == 0
                if syncFirst { syncTimes.append(microseconds(try clock.measure { try Workload.lookup(index, in: keyring) })) }
                let started = clock.now
                try await Workload.lookupAsync(index, in: keyring)
                asyncTimes.append(microseconds(clock.now - started))
                if !syncFirst { syncTimes.append(microseconds(try clock.measure { try Workload.lookup(index, in: keyring) })) }
            }
        }
        return (median(syncTimes), median(asyncTimes))
    }

    private static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    private static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        return values.sorted()[values.count / 2]
    }
}

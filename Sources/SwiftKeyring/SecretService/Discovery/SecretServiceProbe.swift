#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whether a Secret Service can be used here, as automatic store selection
/// and `swift-keyring doctor` see it.
public enum SecretServiceProbe: Sendable, Hashable, CustomStringConvertible {
    /// The session bus answers, and `org.freedesktop.secrets` has an owner that
    /// answers or can be started by D-Bus activation.
    case available
    /// There is no session bus to talk to, or it does not answer; `reason` says which.
    case noBus(reason: String)
    /// The bus answers but no Secret Service daemon owns `org.freedesktop.secrets`,
    /// none can be activated, or the owner does not answer; `reason` says which.
    case noDaemon(reason: String)

    /// One line for logs and `doctor`.
    public var description: String {
        switch self {
        case .available: return "the Secret Service is available"
        case .noBus(let reason): return "no session bus: \(reason)"
        case .noDaemon(let reason): return "no Secret Service daemon: \(reason)"
        }
    }
}

extension SecretServiceStore {
    /// Asks the session bus whether a Secret Service is there, within `timeout` in all.
    ///
    /// It never starts a daemon itself: the owner of the name, as the bus names it, is
    /// greeted (the store's first call, sent with `Hello` and the owner question in one
    /// write: see `FirstFlight`), and a name nobody owns only counts as available when the
    /// bus says it can activate it. Where no bus listens (no address, or Unix sockets nobody accepts a
    /// connection on), the connect itself fails at once and says so.
    ///
    /// ```swift
    /// if case .available = SecretServiceStore.probe() { … }
    /// ```
    /// - Parameters:
    ///   - timeout: the bound on the whole probe.
    ///   - environment: where `DBUS_SESSION_BUS_ADDRESS` (or `XDG_RUNTIME_DIR`) is read from.
    public static func probe(
        timeout: Duration = .milliseconds(500),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> SecretServiceProbe {
        probeKeepingBus(timeout: timeout, environment: environment).probe
    }

    /// ``probe(timeout:environment:)``, and when it answers `.available`, the connection it
    /// asked on: store selection hands it to the store it opens, so a start connects to
    /// the bus once, not twice.
    ///
    /// Nothing but the greeting goes to the daemon before it answers, even when the caller
    /// knows its first read: see `HeldOpening` for why.
    static func probeKeepingBus(timeout: Duration, environment: [String: String]) -> (
        probe: SecretServiceProbe, bus: ProbedBus?
    ) {
        let deadline = Deadline(timeout)
        let address: String
        do {
            address = try SessionBusAddress.resolve(environment)
        } catch {
            return (.noBus(reason: reason(error)), nil)
        }
        let bus: BusConnection
        let flight: FirstFlight
        do {
            bus = try BusConnection(address: address, holding: true, deadline: deadline)
            flight = try FirstFlight(bus: bus, deadline: deadline)
            try bus.flush(deadline: deadline)
        } catch {
            return (.noBus(reason: reason(error)), nil)
        }
        let name = SecretServiceNames.busName
        do {
            // The owner as the bus names it, whose answer to the greeting is proof it answers.
            if let owner = try flight.daemon(deadline: deadline) {
                return (.available, ProbedBus(address: address, connection: bus, owner: owner))
            }
        } catch {
            return (.noDaemon(reason: reason(error)), nil)
        }
        do {
            if try bus.isActivatable(name, deadline: deadline) {
                return (.available, ProbedBus(address: address, connection: bus, owner: nil))
            }
            return (.noDaemon(reason: "\(name) has no owner and the bus cannot activate one"), nil)
        } catch {
            return (.noDaemon(reason: reason(error)), nil)
        }
    }

    /// The detail inside a `KeyringError`, without the kind the probe's case already says.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? KeyringError else { return "\(error)" }
        switch error.code {
        case .serviceUnavailable:
            return error.unavailability?.detail ?? error.description
        case .timedOut:
            return "did not answer \(error.operation ?? "") within \(error.seconds ?? 0) s"
        default:
            return error.description
        }
    }
}

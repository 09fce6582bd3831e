#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The program that owns `org.freedesktop.secrets` on the session bus, such as
/// `gnome-keyring-daemon` or `keepassxc`, as `swift-keyring doctor` shows it.
public struct SecretServiceOwner: Sendable, Hashable, CustomStringConvertible {
    /// The owner's process id, as the bus reports it.
    public var processID: Int32
    /// The program's name, from `/proc/PID/exe` (or `/proc/PID/comm`); `nil` when
    /// `/proc` does not show the process, for example from another PID namespace.
    public var program: String?

    /// Creates an owner description.
    /// - Parameters:
    ///   - processID: the owner's process id.
    ///   - program: the program's name, when known.
    public init(processID: Int32, program: String?) {
        self.processID = processID
        self.program = program
    }

    /// `gnome-keyring-daemon (pid 1234)`, or `pid 1234` when the program is unknown.
    public var description: String {
        program.map { "\($0) (pid \(processID))" } ?? "pid \(processID)"
    }

    /// Whether the owner is gnome-keyring, whose unlock prompt must not be dismissed
    /// while it is open (see `UnlockPrompt`).
    var isGnomeKeyring: Bool {
        program?.hasPrefix("gnome-keyring") == true
    }

    /// The name of the program running as `processID`: the file name of its
    /// executable, else its `comm` (which the kernel cuts to 15 characters).
    static func program(of processID: Int32) -> String? {
        let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(processID)/exe")
        if let exe, !exe.isEmpty {
            let name = URL(fileURLWithPath: exe).lastPathComponent
            // A program replaced on disk since it started (an upgrade) reads as "name (deleted)".
            return name.hasSuffix(" (deleted)") ? String(name.dropLast(" (deleted)".count)) : name
        }
        guard let comm = try? String(contentsOfFile: "/proc/\(processID)/comm", encoding: .utf8) else { return nil }
        let name = String(comm.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        return name.isEmpty ? nil : name
    }
}

extension BusConnection {
    /// Who owns `org.freedesktop.secrets` now; `nil` when nobody does.
    func secretServiceOwner(deadline: Deadline) throws -> SecretServiceOwner? {
        guard let unique = try nameOwner(SecretServiceNames.busName, deadline: deadline),
            let processID = try processID(ofConnection: unique, deadline: deadline)
        else { return nil }
        return SecretServiceOwner(processID: processID, program: SecretServiceOwner.program(of: processID))
    }
}

extension SecretServiceStore {
    /// Asks the session bus which program owns `org.freedesktop.secrets`, within `timeout`.
    ///
    /// Nothing is started: a name with no owner gives `nil`, as does a bus that
    /// cannot be reached or does not answer in time.
    ///
    /// ```swift
    /// if let owner = SecretServiceStore.owner() { print(owner) } // gnome-keyring-daemon (pid 1234)
    /// ```
    /// - Parameters:
    ///   - timeout: the bound on the whole question.
    ///   - environment: where `DBUS_SESSION_BUS_ADDRESS` (or `XDG_RUNTIME_DIR`) is read from.
    public static func owner(
        timeout: Duration = .seconds(1),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> SecretServiceOwner? {
        let deadline = Deadline(timeout)
        guard let address = try? SessionBusAddress.resolve(environment),
            let bus = try? BusConnection(address: address, deadline: deadline)
        else { return nil }
        return try? bus.secretServiceOwner(deadline: deadline)
    }

    /// Whether an unlock prompt can be shown to a person here: a display
    /// (`DISPLAY` or `WAYLAND_DISPLAY`) is set in `environment`. Without one,
    /// gnome-keyring's prompt fails at once and a locked keyring stays locked.
    public static func canShowPrompt(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        ["DISPLAY", "WAYLAND_DISPLAY"].contains { environment[$0].map { !$0.isEmpty } ?? false }
    }
}

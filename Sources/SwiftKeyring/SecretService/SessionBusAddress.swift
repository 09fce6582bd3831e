#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finds the session bus from an environment rather than the process's own,
/// so a test can aim a store at another bus (or none) in-process.
enum SessionBusAddress {
    /// `DBUS_SESSION_BUS_ADDRESS`, else the `$XDG_RUNTIME_DIR/bus` socket that systemd sets up.
    /// - Throws: `KeyringError.serviceUnavailable(reason: .noSessionBus)` saying why there is no bus to talk to.
    static func resolve(_ environment: [String: String]) throws -> String {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            // autolaunch: would start a new bus (and dbus-launch) behind the caller's back.
            guard !address.hasPrefix("autolaunch:") else {
                throw KeyringError.serviceUnavailable(reason: .noSessionBus(detail: "autolaunch addresses are not followed"))
            }
            return address
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            let socket = URL(fileURLWithPath: runtime).appendingPathComponent("bus").path
            if FileManager.default.fileExists(atPath: socket) {
                return "unix:path=\(escape(socket))"
            }
        }
        throw KeyringError.serviceUnavailable(
            reason: .noSessionBus(detail: "DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist")
        )
    }

    /// D-Bus address escaping: bytes outside `[-0-9A-Za-z_/.*]` become `%XX`.
    private static func escape(_ value: String) -> String {
        let plain = Set("-_/.*".utf8)
        return value.utf8.map { byte in
            let isPlain =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A) || plain.contains(byte)
            return isPlain ? String(UnicodeScalar(byte)) : "%" + hex(byte)
        }.joined()
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Finds the session bus from an environment rather than the process's own,
/// so a test can aim a store at another bus (or none) in-process.
enum SessionBusAddress {
    /// `DBUS_SESSION_BUS_ADDRESS`, else the `$XDG_RUNTIME_DIR/bus` socket that systemd sets up,
    /// once every socket file it names is this user's own (`checkOwners`).
    ///
    /// The runtime folder counts only when it is this user's own private folder
    /// (`PrivateFolder`): in a folder others may write, `bus` could be their socket, and
    /// the bus behind it theirs, with a Secret Service of their own on it.
    /// - Throws: `KeyringError.serviceUnavailable(reason: .noSessionBus)` saying why there is no bus
    ///   to talk to; `.insecurePermissions` naming a socket that is not this user's and its owner.
    static func resolve(_ environment: [String: String]) throws -> String {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            // autolaunch: would start a new bus (and dbus-launch) behind the caller's back.
            guard !address.hasPrefix("autolaunch:") else {
                throw KeyringError.serviceUnavailable(reason: .noSessionBus(detail: "autolaunch addresses are not followed"))
            }
            try checkOwners(address)
            return address
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            if let problem = PrivateFolder.problem(at: runtime) {
                throw KeyringError.serviceUnavailable(
                    reason: .noSessionBus(
                        detail: "DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR (\(runtime)) is not used: \(problem)"
                    ))
            }
            let socket = URL(fileURLWithPath: runtime).appendingPathComponent("bus").path
            if FileManager.default.fileExists(atPath: socket) {
                let address = "unix:path=\(escape(socket))"
                try checkOwners(address)
                return address
            }
        }
        throw KeyringError.serviceUnavailable(
            reason: .noSessionBus(detail: "DBUS_SESSION_BUS_ADDRESS is not set and $XDG_RUNTIME_DIR/bus does not exist")
        )
    }

    /// Refuses an address whose `unix:path=` socket belongs to another user, or is no
    /// socket at all: connecting there would authenticate us to a bus someone else runs.
    /// A socket that is not there yet is left to the connection to find missing; abstract
    /// names have no owner on disk, and the connection checks its peer instead (`SO_PEERCRED`).
    /// - Throws: `KeyringError.insecurePermissions` naming the socket and its owner.
    static func checkOwners(_ address: String) throws {
        for entry in address.split(separator: ";") where !entry.isEmpty {
            guard let name = UnixSocketName(entry: String(entry)), !name.isAbstract else { continue }
            let path = String(decoding: name.bytes, as: UTF8.self)
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT != S_IFSOCK {
                throw KeyringError.insecurePermissions(
                    path: path, reason: "the session bus address names something that is not a socket")
            }
            let me = geteuid()
            if info.st_uid != me {
                throw KeyringError.insecurePermissions(
                    path: path,
                    reason: "this session bus socket belongs to \(UserName.describe(info.st_uid)), not to this user "
                        + "(\(UserName.describe(me))); its bus is not trusted with secrets")
            }
        }
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

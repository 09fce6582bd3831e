#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The XDG base directories (the freedesktop.org Base Directory specification),
/// where the keyring file (`XDG_DATA_HOME`) and the session state (`XDG_STATE_HOME`) go.
package enum XDGBaseDirectory {
    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    case data
    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    case state

    /// The folder's absolute path read from `environment`.
    ///
    /// As the specification asks, a relative value of the variable is ignored;
    /// `HOME` is used when it is absolute, else the user's home folder from the system.
    package func path(environment: [String: String]) -> String {
        if let value = environment[variable], value.hasPrefix("/") {
            return value
        }
        let home =
            environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return PathName.join(home, fallback)
    }

    private var variable: String {
        switch self {
        case .data: return "XDG_DATA_HOME"
        case .state: return "XDG_STATE_HOME"
        }
    }

    private var fallback: String {
        switch self {
        case .data: return ".local/share"
        case .state: return ".local/state"
        }
    }
}

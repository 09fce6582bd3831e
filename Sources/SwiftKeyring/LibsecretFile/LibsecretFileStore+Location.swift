#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension LibsecretFileStore {
    /// The variable naming libsecret's keyring file; it wins over libsecret's own place.
    public static let fileVariable = "SWIFT_KEYRING_LIBSECRET_FILE"

    /// Where libsecret keeps its file: `$SWIFT_KEYRING_LIBSECRET_FILE`, else
    /// `$XDG_DATA_HOME/keyrings/default.keyring`, else `~/.local/share/keyrings/default.keyring`.
    ///
    /// Inside a Flatpak `XDG_DATA_HOME` is the app's own folder, so this is the app's file.
    /// Outside a sandbox that folder is gnome-keyring's, whose own `*.keyring` files are of
    /// another format: the store refuses them as damaged and never writes over them.
    /// - Parameter environment: where the variables are read; the process's own unless a test gives another.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let file = environment[fileVariable], !file.isEmpty {
            return URL(fileURLWithPath: file)
        }
        let dataHome = URL(fileURLWithPath: XDGBaseDirectory.data.path(environment: environment), isDirectory: true)
        return dataHome.appendingPathComponent("keyrings", isDirectory: true).appendingPathComponent("default.keyring")
    }
}

import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension EncryptedFileStore {
    /// The variable naming the keyring file; it wins over the XDG default.
    public static let fileVariable = "SWIFT_KEYRING_FILE"

    /// Where the keyring file lives unless the caller says otherwise:
    /// `$SWIFT_KEYRING_FILE`, else `$XDG_DATA_HOME/swift-keyring/keyring.skr`,
    /// else `~/.local/share/swift-keyring/keyring.skr`.
    ///
    /// As the XDG specification asks, a relative `XDG_DATA_HOME` is ignored.
    /// - Parameter environment: where the variables are read; the process's own unless a test gives another.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let file = environment[fileVariable], !file.isEmpty {
            return URL(fileURLWithPath: file)
        }
        // Joined as text: `URL.appendingPathComponent` builds a `Set<UInt8>` on its first use
        // (about 0.25M instructions), and every command computes this default.
        let folder = PathName.join(XDGBaseDirectory.data.path(environment: environment), "swift-keyring")
        return URL(fileURLWithPath: PathName.join(folder, "keyring.skr"), isDirectory: false)
    }

    /// The version of the libgcrypt in use, such as `1.10.1`, for `swift-keyring doctor`.
    public static var libgcryptVersion: String {
        (try? Gcrypt.ensureReady()).flatMap { Gcrypt.initialisedVersion } ?? "unavailable (1.10 or newer is needed)"
    }
}

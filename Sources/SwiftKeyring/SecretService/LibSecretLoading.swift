internal import CLibSecretShims

/// libsecret, GIO, GObject and GLib, loaded the first time a Secret Service store, probe or
/// import needs them rather than at the program's start (see `CLibSecret.h`).
///
/// Every path into the Secret Service code calls ``ensureLoaded()`` before its first GLib
/// call: `BusConnection.init` (stores, clients, the probe once a bus answers, the owner
/// check), the store's own init and the foreign-item search. A C stub called before that
/// stops the program naming itself, so a missed path shows in the first test that takes it.
enum LibSecretLoading {
    /// `nil` once every function is found, else the loader's sentence; loaded once a process.
    private static let failure: String? = swift_keyring_libsecret_load().map { String(cString: $0) }

    /// Loads the libraries when that has not happened yet.
    /// - Throws: `KeyringError.serviceUnavailable(reason: .libraryMissing)` naming the
    ///   library that could not be loaded (such as `libsecret-1.so.0`) and why.
    static func ensureLoaded() throws {
        if let failure {
            throw KeyringError.serviceUnavailable(reason: .libraryMissing(detail: failure))
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Whether this process runs inside a Flatpak or Snap sandbox, by libsecret's own
/// test, so the library chooses libsecret's file where libsecret would.
///
/// libsecret (0.20.5 on) looks for `/.flatpak-info`, which Flatpak puts at the
/// root of every sandbox, or for `SNAP_NAME` in the environment, which snapd sets,
/// even when empty; then it uses its file only when the Secret portal answers.
enum AppSandbox {
    /// The file Flatpak puts at the root of every sandbox.
    static let flatpakInfoPath = "/.flatpak-info"
    /// The variable snapd sets for every snap's processes.
    static let snapVariable = "SNAP_NAME"

    /// Why this process counts as sandboxed (`/.flatpak-info exists`, `SNAP_NAME is set`), or `nil`.
    /// - Parameters:
    ///   - environment: where `SNAP_NAME` is read.
    ///   - flatpakInfo: the file whose presence means Flatpak; another path only in tests.
    static func reason(environment: [String: String], flatpakInfo: String = flatpakInfoPath) -> String? {
        // Present in any form, as libsecret's g_file_test(G_FILE_TEST_EXISTS) takes it.
        if access(flatpakInfo, F_OK) == 0 {
            return "\(flatpakInfo) exists (a Flatpak sandbox)"
        }
        // Set counts, even empty: libsecret asks g_getenv for NULL, not for a value.
        if environment[snapVariable] != nil {
            return "\(snapVariable) is set (a Snap sandbox)"
        }
        return nil
    }
}

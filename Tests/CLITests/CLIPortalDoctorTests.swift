import Foundation
import Testing

/// `doctor` on libsecret's file: which store, which secret keys it, and why.
@Suite("CLI doctor on libsecret's file and the Secret portal")
struct CLIPortalDoctorTests {
    @Test("doctor shows libsecret's file, its key source and why, and no passphrase")
    func doctorLibsecretFile() throws {
        let sandbox = try Sandbox()
        var env = sandbox.passphraseEnvironment([
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.folder.path)/no-bus",
            "XDG_DATA_HOME": sandbox.folder.appendingPathComponent("data").path,
            "SWIFT_KEYRING_BACKEND": "libsecret-file",
        ])
        env.removeValue(forKey: "SWIFT_KEYRING_LIBSECRET_KEY")
        env.removeValue(forKey: "SWIFT_KEYRING_LIBSECRET_FILE")
        env.removeValue(forKey: "SWIFT_KEYRING_KEY_FILE")
        let doctor = try CLI.run(["doctor"], environment: env)
        #expect(doctor.status == 0, "doctor failed: \(doctor.stderr)")
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        let file = sandbox.folder.appendingPathComponent("data/keyrings/default.keyring").path
        #expect(lines.first == "store:            libsecret-file (forced by SWIFT_KEYRING_BACKEND)")
        #expect(
            lines.dropFirst().first?.hasPrefix("key source:       a passphrase or key, as the encrypted file finds one") == true)
        #expect(lines.dropFirst().first?.hasSuffix("because one is set (passphrase (hidden))") == true)
        #expect(lines.contains("libsecret file:   \(file)"))
        #expect(!doctor.allOutput.contains(sandbox.passphrase))

        env["SWIFT_KEYRING_LIBSECRET_KEY"] = "portal"
        let json = try CLI.run(["doctor", "--json"], environment: env)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["store"] as? String == "libsecret-file")
        #expect(
            object["keySource"] as? String
                == "the Secret portal's secret for this app (org.freedesktop.portal.Secret), because SWIFT_KEYRING_LIBSECRET_KEY is portal"
        )
    }
}

import Foundation
import Testing

/// `doctor` shows the choice and its reason without a passphrase; `passwd` changes the file's passphrase.
@Suite("CLI doctor and passwd")
struct CLIDoctorAndPasswdTests {
    @Test("doctor on a host without a bus: the file store, its path and permissions, versions, no secret")
    func doctorWithoutBus() throws {
        let sandbox = try Sandbox()
        var env = sandbox.passphraseEnvironment(["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(sandbox.folder.path)/no-bus"])
        env.removeValue(forKey: "SWIFT_KEYRING_BACKEND")
        #expect(
            try CLI.run(["set", "--username", "a", "--url", "https://x.example"], stdin: "the-pw", environment: env).status == 0)
        env.removeValue(forKey: "SWIFT_KEYRING_PASSPHRASE")
        let doctor = try CLI.run(["doctor"], environment: env)
        #expect(doctor.status == 0, "doctor failed: \(doctor.stderr)")
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("store:            file (no session bus:") == true)
        #expect(lines.contains("session bus:      does not answer"))
        #expect(lines.contains("file:             \(sandbox.keyringFile.path)"))
        #expect(lines.contains("file permissions: 0600 in a 0700 folder"))
        // No libsecret is loaded for any Secret Service call, so doctor has no version of it to show.
        #expect(!lines.contains { $0.hasPrefix("libsecret:") })
        #expect(lines.contains { $0.hasPrefix("libgcrypt:        1.") })
        #expect(!doctor.allOutput.contains("the-pw") && !doctor.allOutput.contains(sandbox.passphrase))

        let json = try CLI.run(["doctor", "--json"], environment: env)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["store"] as? String == "file")
        let file = try #require(object["file"] as? [String: Any])
        #expect(file["mode"] as? String == "0600" && file["folderMode"] as? String == "0700")
        let bus = try #require(object["sessionBus"] as? [String: Any])
        #expect(bus["answers"] as? Bool == false)
    }

    @Test("doctor names an unsafe file")
    func doctorUnsafeFile() throws {
        let sandbox = try Sandbox()
        let env = sandbox.passphraseEnvironment()
        _ = try CLI.run(["set", "--username", "a", "--url", "https://x.example"], stdin: "pw", environment: env)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: sandbox.keyringFile.path)
        let doctor = try CLI.run(["doctor"], environment: env)
        #expect(doctor.status == 0)
        #expect(
            doctor.stdout.contains("file permissions: 0644 in a 0700 folder — unsafe: \(sandbox.keyringFile.path): its mode 0644")
        )
    }

    @Test("doctor inside a desktop session: the Secret Service, unlocked")
    func doctorWithDaemon() throws {
        try #require(
            ProcessInfo.processInfo.environment["SWIFT_KEYRING_PRIVATE_SECRET_SERVICE"] == "1",
            "run the tests through Scripts/with-secret-service.sh (Scripts/test.sh does)")
        let sandbox = try Sandbox()
        var env = sandbox.secretServiceEnvironment()
        env.removeValue(forKey: "SWIFT_KEYRING_BACKEND")
        let doctor = try CLI.run(["doctor"], environment: env)
        #expect(
            doctor.stdout.hasPrefix(
                "store:            secret-service (a session bus answers and org.freedesktop.secrets is there)\n"))
        #expect(doctor.stdout.contains("secret service:   available, default collection unlocked"))
        #expect(doctor.stdout.contains("service owner:    gnome-keyring-daemon (pid "))
        env.removeValue(forKey: "DISPLAY")
        env.removeValue(forKey: "WAYLAND_DISPLAY")
        let headless = try CLI.run(["doctor"], environment: env)
        #expect(headless.stdout.contains("unlock prompt:    cannot be shown (neither DISPLAY nor WAYLAND_DISPLAY is set)"))
        env["WAYLAND_DISPLAY"] = "wayland-0"
        let desktop = try CLI.run(["doctor", "--prompt-timeout", "30"], environment: env)
        #expect(desktop.stdout.contains("unlock prompt:    can be shown (a display is set); waits up to 30 s for you"))
    }

    @Test(
        "A prompt timeout that is not a number of seconds above zero: a clear error naming it, whichever store",
        arguments: ["abc", "0", "-3", "1e3", "99999999"])
    func badPromptTimeout(_ value: String) throws {
        let sandbox = try Sandbox()
        let env = sandbox.passphraseEnvironment()
        let option = try CLI.run(["list", "--prompt-timeout=\(value)"], environment: env)
        #expect(option.status == 64)
        #expect(option.stderr.contains("--prompt-timeout must be a number of seconds greater than zero"))
        let variable = try CLI.run(["list"], environment: env.merging(["SWIFT_KEYRING_PROMPT_TIMEOUT": value]) { $1 })
        // The variable stands for the option, so a bad value is the same usage error.
        #expect(variable.status == 64)
        #expect(variable.stderr.contains("Invalid SWIFT_KEYRING_PROMPT_TIMEOUT: must be a number of seconds greater than zero"))
    }

    @Test("passwd keeps every record; the old passphrase no longer opens the file")
    func passwd() throws {
        let sandbox = try Sandbox()
        let env = sandbox.passphraseEnvironment()
        _ = try CLI.run(["set", "one", "--username", "a", "--url", "https://x.example"], stdin: "first", environment: env)
        _ = try CLI.run(["set", "two", "--username", "b", "--url", "https://x.example"], stdin: "second", environment: env)
        let newPassphrase = "new-passphrase-\(UUID().uuidString)"
        let change = try CLI.run(["passwd"], environment: env.merging(["SWIFT_KEYRING_NEW_PASSPHRASE": newPassphrase]) { $1 })
        #expect(change.status == 0, "passwd failed: \(change.stderr)")
        #expect(!change.allOutput.contains(newPassphrase) && !change.allOutput.contains(sandbox.passphrase))
        #expect(try CLI.run(["get", "one"], environment: env).status == 77)
        let withNew = env.merging(["SWIFT_KEYRING_PASSPHRASE": newPassphrase]) { $1 }
        #expect(try CLI.run(["get", "one"], environment: withNew).stdout == "first\n")
        #expect(try CLI.run(["get", "two"], environment: withNew).stdout == "second\n")
    }

    @Test("passwd without a new passphrase and without a terminal changes nothing")
    func passwdWithoutNewPassphrase() throws {
        let sandbox = try Sandbox()
        let env = sandbox.passphraseEnvironment()
        _ = try CLI.run(["set", "--username", "a", "--url", "https://x.example"], stdin: "pw", environment: env)
        let before = try Data(contentsOf: sandbox.keyringFile)
        let change = try CLI.run(["passwd"], environment: env)
        #expect(change.status == 77)
        #expect(change.stderr.contains("SWIFT_KEYRING_NEW_PASSPHRASE"))
        #expect(try Data(contentsOf: sandbox.keyringFile) == before)
    }
}

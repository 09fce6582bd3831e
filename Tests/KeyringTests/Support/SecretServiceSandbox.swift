import Foundation
import KeyringTestSupport
import SwiftKeyring

/// A session bus and (optionally) a gnome-keyring daemon of a test's own, for
/// tests that lock, stop or remove the daemon and so cannot share one.
///
/// The bus config has no `<servicedir>`: nothing is D-Bus activated, so a bus
/// without the daemon stays without it, and the unlock prompter is never found
/// (a prompt fails at once, as on a machine with no display), unless the
/// sandbox is given a `MockPrompter` to start before the daemon.
final class SecretServiceSandbox {
    enum Contents {
        case busOnly
        case busAndDaemon
        /// A daemon started without `--unlock` in a new home: no login keyring, so no
        /// default collection (`ReadAlias("default")` answers `/`), as in WSL or a minimal session.
        case busAndDaemonWithoutCollection
    }

    private let folder: URL
    private let bus: Process
    private var daemon: Process?
    private var prompter: Process?
    /// The prompter's bus name, passed to the daemon as `GNOME_KEYRING_TEST_PROMPTER`.
    private var prompterName: String?
    /// The login keyring's password, kept so a restarted daemon unlocks the same keyring.
    private let password: String
    /// The home folder, where the daemon keeps its keyring files (`.local/share/keyrings`).
    private let home: URL
    /// The environment that aims a store at this bus.
    let environment: [String: String]

    /// Starts a bus, and the daemon when `contents` says so; with `prompter`, the
    /// mock prompter first, so the daemon's unlock prompts go to it. With `other`, the
    /// daemon keeps its keyrings in `other`'s home, as a second login of the same user
    /// does (its own bus and runtime folder, the same keyring files and password).
    init(_ contents: Contents, prompter: MockPrompter? = nil, sharingKeyringsWith other: SecretServiceSandbox? = nil) throws {
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("swift-keyring-ss-\(UUID().uuidString.prefix(8))")
        home = other?.home ?? folder.appendingPathComponent("home")
        password = other?.password ?? "sandbox-\(UUID().uuidString)"
        let runtime = folder.appendingPathComponent("runtime")
        for directory in [home, runtime] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        let socket = folder.appendingPathComponent("bus").path
        let config = folder.appendingPathComponent("bus.conf")
        try Self.busConfig(socket: socket).write(to: config, atomically: true, encoding: .utf8)

        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(socket)"
        environment.removeValue(forKey: "DISPLAY")
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        environment.removeValue(forKey: "GNOME_KEYRING_CONTROL")
        self.environment = environment

        bus = try ChildProcess.start(
            ["dbus-daemon", "--config-file=\(config.path)", "--nofork", "--nosyslog"],
            environment: environment,
            log: folder.appendingPathComponent("bus.log")
        )
        // The socket file appears at bind(), a moment before the bus accepts: wait for an answer.
        guard ChildProcess.poll(timeout: .seconds(15), { (try? self.busAnswers()) == true }) else {
            stop()
            throw ChildProcess.Failure(description: "dbus-daemon did not answer on its socket")
        }
        if let prompter {
            do {
                let (process, name) = try prompter.start(
                    environment: environment, password: password, log: folder.appendingPathComponent("prompter.log")
                )
                self.prompter = process
                prompterName = name
            } catch {
                stop()
                throw error
            }
        }
        switch contents {
        case .busOnly: break
        case .busAndDaemon: try startDaemon()
        case .busAndDaemonWithoutCollection: try startDaemon(unlocking: false)
        }
    }

    deinit {
        stop()
    }

    private func startDaemon(unlocking: Bool = true) throws {
        var daemonEnvironment = environment
        daemonEnvironment["GNOME_KEYRING_TEST_PROMPTER"] = prompterName
        daemon = try ChildProcess.start(
            ["gnome-keyring-daemon", "--foreground"] + (unlocking ? ["--unlock"] : []) + ["--components=secrets"],
            environment: daemonEnvironment,
            input: unlocking ? Data(password.utf8) : Data(),
            log: folder.appendingPathComponent("gnome-keyring.log")
        )
        guard ChildProcess.poll(timeout: .seconds(15), { (try? self.secretServiceHasOwner()) == true }) else {
            stop()
            throw ChildProcess.Failure(description: "gnome-keyring-daemon did not take org.freedesktop.secrets")
        }
        guard unlocking else { return }
        // The login collection is created on first use; make sure it exists and is unlocked.
        let store = try SecretServiceStore(timeout: .seconds(10), environment: environment)
        guard try store.isLocked() == false else {
            stop()
            throw ChildProcess.Failure(description: "the sandbox's login collection is locked")
        }
    }

    private func busAnswers() throws -> Bool {
        try dbusSend(dest: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", method: "org.freedesktop.DBus.GetId").status
            == 0
    }

    private func secretServiceHasOwner() throws -> Bool {
        let output = try dbusSend(
            dest: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            method: "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets"
        )
        return String(decoding: output.standardOutput, as: UTF8.self).contains("boolean true")
    }

    private func dbusSend(dest: String, path: String, method: String, _ arguments: String...) throws -> ChildProcess.Output {
        try ChildProcess.run(
            ["dbus-send", "--session", "--print-reply", "--reply-timeout=5000", "--dest=\(dest)", path, method] + arguments,
            environment: environment,
            timeout: .seconds(10)
        )
    }

    /// Locks the default collection through the Secret Service's `Lock` method
    /// (`secret-tool lock` hangs in libsecret 0.20.5).
    func lockDefaultCollection() throws {
        let output = try dbusSend(
            dest: "org.freedesktop.secrets", path: "/org/freedesktop/secrets",
            method: "org.freedesktop.Secret.Service.Lock", "array:objpath:/org/freedesktop/secrets/aliases/default"
        )
        guard output.status == 0 else {
            throw ChildProcess.Failure(description: "Lock failed: \(output.standardError)")
        }
    }

    /// The password of the login keyring (and of a collection the mock prompter creates), for unlock tests.
    var keyringPassword: String { password }

    /// Whether the daemon still runs: a prompt test checks it survived what the store did.
    var daemonIsRunning: Bool {
        daemon?.isRunning == true
    }

    /// Freezes the daemon (SIGSTOP): it keeps its bus name and answers nothing.
    func freezeDaemon() {
        if let daemon { kill(daemon.processIdentifier, SIGSTOP) }
    }

    /// Resumes a frozen daemon (SIGCONT); it answers what was sent meanwhile.
    func thawDaemon() {
        if let daemon { kill(daemon.processIdentifier, SIGCONT) }
    }

    /// The daemon's process id, for a child process that freezes it itself.
    var daemonPID: pid_t? {
        daemon?.processIdentifier
    }

    /// Ends the daemon the way a crash does (SIGKILL), leaving its keyring files;
    /// returns once the bus has seen it go.
    func crashDaemon() throws {
        guard let daemon else { return }
        kill(daemon.processIdentifier, SIGKILL)
        guard ChildProcess.waitForExit(daemon, timeout: .seconds(10)),
            ChildProcess.poll(timeout: .seconds(10), { (try? self.secretServiceHasOwner()) == false })
        else {
            throw ChildProcess.Failure(description: "the killed gnome-keyring-daemon kept its bus name")
        }
        self.daemon = nil
    }

    /// Starts a new daemon on the same keyring files, as systemd does after a crash.
    func restartDaemon() throws {
        try startDaemon()
    }

    /// Kills the daemon and the bus, and removes the folder (a shared home goes with the
    /// sandbox that made it); safe to call twice.
    func stop() {
        if let daemon { ChildProcess.terminate(daemon) }
        if let prompter { ChildProcess.terminate(prompter) }
        ChildProcess.terminate(bus)
        try? FileManager.default.removeItem(at: folder)
    }

    private static func busConfig(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          <!-- A desktop session bus's limits (Debian's session.conf), not dbus-daemon's 32 MiB default:
               so a 60 MiB answer reaches the client, whose own cap must refuse it. -->
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
          <limit name="max_message_size">1000000000</limit>
        </busconfig>
        """
    }
}

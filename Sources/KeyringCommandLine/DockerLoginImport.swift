internal import KeyringCrypto
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// `docker-credential-swift-keyring [OPTIONS] import [--rewrite] [--secretservice] [FILE…]`:
/// moves the logins docker and podman keep in the clear (the `auths` of a docker `config.json`
/// or a containers `auth.json`) and those `docker-credential-secretservice` keeps into the
/// helper's records, which the helper then answers.
///
/// The files are left as they are unless `--rewrite` is given: then, once every login of a file
/// is stored, the old file is kept as `FILE.before-swift-keyring` (mode 0600, refused if it is
/// there already) and the file is rewritten with those logins gone from `auths` and their
/// servers named in `credHelpers`, every other member byte for byte as it was.
enum DockerLoginImport {
    /// The name a client's configuration gives the helper: `docker-credential-` is the clients' own prefix.
    static let helperName = "swift-keyring"
    /// The largest configuration file read.
    static let maximumFileBytes = 4 << 20
    /// The suffix of the copy of a rewritten file.
    static let backupSuffix = ".before-swift-keyring"

    static func run(_ arguments: DockerHelperArguments) throws -> Int32 {
        var rewrite = false
        var secretService = false
        var files: [String] = []
        for word in arguments.actionArguments {
            switch word {
            case "--rewrite": rewrite = true
            case "--secretservice": secretService = true
            case _ where word.hasPrefix("-"):
                throw CommandFailure(
                    message: "import: unknown option \(word). \(DockerHelperArguments.usage)", status: ExitStatus.usage)
            default: files.append(word)
            }
        }
        guard !files.isEmpty || secretService else {
            throw CommandFailure(
                message: "import: name a config.json or auth.json, or --secretservice. \(DockerHelperArguments.usage)",
                status: ExitStatus.usage)
        }
        // Every source is read, and every copy's place checked, before anything is stored or written.
        var configs: [(path: String, file: DockerConfigFile)] = []
        defer { for index in configs.indices { configs[index].file.bytes.wipe() } }
        for path in files {
            configs.append((path, try read(path)))
            if rewrite, access(path + backupSuffix, F_OK) == 0 {
                throw CommandFailure(
                    message: "import: \(path + backupSuffix) is there already; move it away first. Nothing was changed.",
                    status: ExitStatus.invalidInput)
            }
        }
        let keyring = try KeyringOpener.open(arguments.settings)
        for config in configs {
            var (logins, passedOver) = config.file.logins()
            defer { for index in logins.indices { logins[index].secret.wipe() } }
            for index in logins.indices {
                // Taken out of the list, so the store's wipe reaches the one buffer (a shared one would be copied first).
                var secret: [UInt8] = []
                swap(&secret, &logins[index].secret)
                try DockerCredentialRecords.store(
                    server: logins[index].server, username: logins[index].username, secret: consume secret, sync: arguments.sync,
                    in: keyring)
            }
            report(copied: logins.count, from: config.path, passedOver: passedOver, service: arguments.settings.resolvedService)
            if rewrite, !logins.isEmpty {
                try writeNew(path: config.path + backupSuffix, bytes: config.file.bytes)
                let rewritten = try config.file.rewritten(naming: logins.map(\.server), helper: helperName)
                try replace(path: config.path, bytes: rewritten)
                Console.output(
                    "Rewrote \(config.path) to name the helper in credHelpers; the old file is \(config.path + backupSuffix) (mode 0600)."
                )
            }
        }
        if secretService { try importSecretService(arguments, into: keyring) }
        return 0
    }

    private static func report(copied: Int, from source: String, passedOver: [(String, String)], service: String) {
        Console.output("Copied \(copied) login\(copied == 1 ? "" : "s") from \(source) to the service \(service).")
        for (server, reason) in passedOver {
            Console.output("Passed over \(PrintableField.escaped(server)): \(reason).")
        }
    }

    /// `docker-credential-secretservice`'s items (schema `io.docker.Credentials`, `docker_cli` 1); they stay.
    private static func importSecretService(_ arguments: DockerHelperArguments, into keyring: Keyring) throws {
        let timeout = try arguments.settings.configuration().timeout
        var items = try ForeignSecretServiceItems.search(["xdg:schema": "io.docker.Credentials"], timeout: timeout)
        defer { for index in items.indices { items[index].secret?.wipe() } }
        var copied = 0
        var passedOver: [(String, String)] = []
        for index in items.indices where items[index].attributes["docker_cli"] == "1" {
            let server = items[index].attributes["server"] ?? ""
            guard let username = items[index].attributes["username"], !username.isEmpty else {
                passedOver.append((server, "it has no username"))
                continue
            }
            guard let secret = items[index].secret else {
                passedOver.append((server, "its collection is locked"))
                continue
            }
            if let problem = DockerCredentialRecords.problem(withServer: server) {
                passedOver.append((server, problem))
                continue
            }
            items[index].secret = nil
            try DockerCredentialRecords.store(
                server: server, username: username, secret: consume secret, sync: arguments.sync, in: keyring)
            copied += 1
        }
        report(
            copied: copied, from: "docker-credential-secretservice", passedOver: passedOver,
            service: arguments.settings.resolvedService)
    }

    /// A configuration file's logins.
    private static func read(_ path: String) throws -> DockerConfigFile {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure(
                message: "import: cannot read \(path): \(String(cString: strerror(errno))).", status: ExitStatus.invalidInput)
        }
        defer { close(descriptor) }
        var (bytes, overflowed) = DockerBoundedRead.all(from: descriptor, bound: maximumFileBytes)
        guard !overflowed else {
            bytes.wipe()
            throw CommandFailure(message: "import: \(path) is longer than 4 MiB.", status: ExitStatus.invalidInput)
        }
        do {
            return try DockerConfigFile(bytes: bytes)
        } catch let refusal as DockerCredentialJSON.Refusal {
            bytes.wipe()
            throw CommandFailure(
                message: "import: \(path): \(refusal.reason). Nothing was changed.", status: ExitStatus.invalidInput)
        }
    }

    /// Writes a new file, mode 0600, refusing one that is there.
    private static func writeNew(path: String, bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailure(
                message: "import: cannot create \(path): \(String(cString: strerror(errno))).", status: ExitStatus.unavailable)
        }
        defer { close(descriptor) }
        try writeAll(descriptor, bytes, path: path)
    }

    /// Replaces `path` by a new file of `bytes`, mode 0600: written beside it, synced, renamed over it.
    private static func replace(path: String, bytes: [UInt8]) throws {
        let temporary = path + ".swift-keyring-\(getpid())"
        try writeNew(path: temporary, bytes: bytes)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CommandFailure(message: "import: cannot replace \(path): \(reason).", status: ExitStatus.unavailable)
        }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8], path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                throw CommandFailure(
                    message: "import: cannot write \(path): \(String(cString: strerror(errno))).", status: ExitStatus.unavailable)
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else {
            throw CommandFailure(
                message: "import: cannot sync \(path): \(String(cString: strerror(errno))).", status: ExitStatus.unavailable)
        }
    }
}

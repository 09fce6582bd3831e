/// The docker helper's command line: the store options (the tool's and the git helper's,
/// `--name value` or `--name=value`), `--sync`, then the action the client appends last.
///
/// Clients run `docker-credential-NAME ACTION` with nothing else, so options reach the helper
/// only through a wrapper script named `docker-credential-NAME`, or through `SWIFT_KEYRING_*`
/// variables. The service is `docker-credential` unless `--service` names another
/// (`SWIFT_KEYRING_SERVICE` is an app's, and is not read here).
package struct DockerHelperArguments: Sendable, Equatable {
    package var settings: StoreSettings
    /// Whether `store` marks the record for the fleet's shared store (`--sync-store etcd`).
    package var sync: Bool
    package var action: String
    /// The words after the action: only `import` takes any.
    package var actionArguments: [String] = []

    /// The helper's own flag, beside the store options.
    package static let syncFlag = "--sync"

    package static var usage: String {
        let options =
            StoreSettings.valueOptionNames.map { "[\($0) VALUE]" }
            + (StoreSettings.flagOptionNames + [syncFlag]).map { "[\($0)]" }
        return "Usage: docker-credential-swift-keyring \(options.joined(separator: " ")) <store|get|erase|list|version> "
            + "(the store options of swift-keyring; see swift-keyring --help)"
    }

    /// Reads `words` (the command line after the program's name).
    /// - Throws: `CommandFailure` (status 64) for no action, an unknown option or a missing value.
    package static func parse(_ words: [String]) throws -> DockerHelperArguments {
        var settings = StoreSettings()
        settings.service = DockerCredentialRecords.service
        var sync = false
        var index = 0
        while index < words.count {
            let word = words[index]
            if !word.hasPrefix("-") || ["--version", "-v", "--help", "-h"].contains(word) {
                let rest = Array(words[(index + 1)...])
                guard rest.isEmpty || word == "import" else { throw usageFailure("\(word) takes no arguments") }
                return DockerHelperArguments(settings: settings, sync: sync, action: word, actionArguments: rest)
            }
            if try settings.readOption(from: words, at: &index, ownFlags: [syncFlag], usage: usageFailure) == syncFlag {
                sync = true
            }
        }
        throw usageFailure("no action (store, get, erase, list or version) was given")
    }

    private static func usageFailure(_ reason: String) -> CommandFailure {
        CommandFailure(message: "\(reason). \(usage)", status: ExitStatus.usage)
    }
}

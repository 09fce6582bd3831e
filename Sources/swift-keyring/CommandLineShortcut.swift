import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

/// The well-formed command lines, parsed without ArgumentParser.
///
/// ArgumentParser learns a command's options by reflecting over its property wrappers
/// at run time: Mirror, dynamic casts, generic metadata built from mangled names, and a
/// scan of the binary's protocol conformances for each new type. For `swift-keyring get`
/// that was 10.1M of the process's 28.1M instructions, more than the Secret Service
/// session and the loader. So the lines people and scripts actually type (a subcommand,
/// its key, its long options with their values, its flags, each at most once) are read
/// here into the same command values ArgumentParser would make, and everything else
/// (help, `help SUBCOMMAND`, completion scripts, an unknown or repeated option, a
/// missing value, `--`, a short option, an empty word, a value that starts with `-`, a
/// failed `validate()`) returns `nil`, and ArgumentParser parses the line as before, with
/// its own messages. `CLICommandLineShortcutTests` parses a corpus both ways and
/// requires the same commands; an option or flag added to a subcommand must be read
/// here too, or that test fails (a property left unset would crash `run` when read).
enum CommandLineShortcut {
    /// What a command line asks for.
    enum Request {
        /// `swift-keyring --version`.
        case version
        /// A subcommand, its properties set as ArgumentParser would set them.
        case command(any ParsableCommand)
        /// `swift-keyring get`, as plain values: making a `GetCommand` runs its property
        /// wrappers' set-up (ArgumentParser's name tables and a conformance lookup, about
        /// 0.45M instructions), a cost the commonest command need not pay.
        case get(GetRequest)
    }

    /// The request of `arguments` (the command line without the program's name), or `nil`
    /// when it is not one of the lines read here.
    static func parse(_ arguments: [String]) -> Request? {
        guard let name = arguments.first else { return nil }
        let rest = arguments.dropFirst()
        if name == "--version" { return rest.isEmpty ? .version : nil }
        if name == "get" {
            guard let words = Words(rest, takesKey: true, flags: ["--json"]) else { return nil }
            return .get(GetRequest(key: words.key, json: words.has("--json"), store: words.settings))
        }
        guard var command = subcommand(name, rest), (try? command.validate()) != nil else { return nil }
        return .command(command)
    }

    private static func subcommand(_ name: String, _ rest: ArraySlice<String>) -> (any ParsableCommand)? {
        switch name {
        case "set":
            let flags = ["--sync", "--background-access", "--allow-empty-password"]
            guard let words = Words(rest, takesKey: true, flags: flags, required: ["--username", "--url"]),
                let username = words.value("--username"), let url = words.value("--url")
            else { return nil }
            var command = SetCommand()
            command.key = words.key
            command.username = username
            command.url = url
            command.sync = words.has("--sync")
            command.backgroundAccess = words.has("--background-access")
            command.allowEmptyPassword = words.has("--allow-empty-password")
            command.store = words.store
            return command
        case "remove":
            guard let words = Words(rest, takesKey: true) else { return nil }
            var command = RemoveCommand()
            command.key = words.key
            command.store = words.store
            return command
        case "list":
            let flags = ["--json", "--sync-only", "--background-access-only", "--show-place"]
            guard let words = Words(rest, flags: flags, optional: ["--place"]) else { return nil }
            var command = ListCommand()
            command.json = words.has("--json")
            command.syncOnly = words.has("--sync-only")
            command.backgroundAccessOnly = words.has("--background-access-only")
            command.showPlace = words.has("--show-place")
            command.place = nil
            if let place = words.value("--place") {
                // A word that is no place gets ArgumentParser's message.
                guard let known = RecordPlace(rawValue: place) else { return nil }
                command.place = known
            }
            command.store = words.store
            return command
        case "remove-all":
            guard let words = Words(rest, flags: ["--yes", "--this-machine"]) else { return nil }
            var command = RemoveAllCommand()
            command.yes = words.has("--yes")
            command.thisMachine = words.has("--this-machine")
            command.store = words.store
            return command
        case "sync":
            guard rest.first == "push", let words = Words(rest.dropFirst()) else { return nil }
            var command = SyncPushCommand()
            command.store = words.store
            return command
        case "doctor":
            guard let words = Words(rest, flags: ["--json"]) else { return nil }
            var command = DoctorCommand()
            command.json = words.has("--json")
            command.store = words.store
            return command
        case "passwd":
            guard let words = Words(rest) else { return nil }
            var command = PasswdCommand()
            command.store = words.store
            return command
        case "migrate":
            guard let words = Words(rest, flags: ["--remove-source"], required: ["--from", "--to"]),
                let from = words.value("--from"), let to = words.value("--to")
            else { return nil }
            var command = MigrateCommand()
            command.from = from
            command.to = to
            command.removeSource = words.has("--remove-source")
            command.store = words.store
            return command
        default:
            return nil
        }
    }

    /// One subcommand's words after its name: an optional key, flags, and options with values.
    ///
    /// Arrays searched in order, not sets and dictionaries: a command line has a handful of
    /// words, and a `Set<String>` hashes every name it is made of, first in every process.
    private struct Words {
        /// The options of `StoreOptions`, which every subcommand takes.
        private static let storeOptions = StoreSettings.valueOptionNames
        /// The flags of `StoreOptions`.
        private static let storeFlags = StoreSettings.flagOptionNames

        private(set) var key: String?
        private var flags: [String] = []
        private var values: [(name: String, value: String)] = []

        /// `nil` unless every word is the key (where one is taken, once), a flag of `flags`, or
        /// an option of `required` or `StoreOptions` with its value; each at most once, and every
        /// option of `required` given.
        init?(
            _ words: ArraySlice<String>, takesKey: Bool = false, flags flagNames: [String] = [],
            required: [String] = [], optional: [String] = []
        ) {
            var index = words.startIndex
            while index < words.endIndex {
                let word = words[index]
                index += 1
                guard !word.isEmpty else { return nil }
                guard word.hasPrefix("--") else {
                    // A word with one dash is a short option (or `-`), which ArgumentParser reads its way.
                    guard takesKey, key == nil, !word.hasPrefix("-") else { return nil }
                    key = word
                    continue
                }
                // A Character search, as `split(separator:)` was: "=" and a combining mark are one Character.
                let equals = word.firstIndex(of: "=")
                let name = equals.map { String(word[..<$0]) } ?? word
                if flagNames.contains(name) || Self.storeFlags.contains(name) {
                    guard equals == nil, !flags.contains(name) else { return nil }
                    flags.append(name)
                    continue
                }
                guard required.contains(name) || optional.contains(name) || Self.storeOptions.contains(name),
                    self.value(name) == nil
                else { return nil }
                let value: String
                if let equals {
                    value = String(word[word.index(after: equals)...])
                } else {
                    guard index < words.endIndex else { return nil }
                    value = words[index]
                    index += 1
                }
                guard !value.isEmpty, !value.hasPrefix("-") else { return nil }
                values.append((name, value))
            }
            guard required.allSatisfy({ self.value($0) != nil }) else { return nil }
        }

        func has(_ flag: String) -> Bool { flags.contains(flag) }

        func value(_ option: String) -> String? { values.first { $0.name == option }?.value }

        var settings: StoreSettings {
            var settings = StoreSettings()
            // Names of a subcommand's own options and flags are not store options, and set nothing.
            for (name, value) in values { _ = settings.set(name, to: value) }
            for flag in flags { _ = settings.setFlag(flag) }
            return settings
        }

        var store: StoreOptions { StoreOptions(settings) }
    }
}

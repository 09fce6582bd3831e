/// The store options given before the subcommand (`swift-keyring --service other list`), moved
/// after it, where each subcommand reads them: the git helper takes them in either place, and a
/// person who sets the store first and the action second should meet the same tool.
enum LeadingStoreOptions {
    // Arrays, not sets: every start passes through here, and a handful of names
    // compared in turn costs less than hashing them into a set first (callgrind, `--version`).
    /// The store options that take a value (``KeyringCommandLine/StoreOptions``), by long name.
    private static let valued = [
        "--service", "--backend", "--etcd-endpoints", "--sync-store", "--file", "--prompt-timeout", "--collection",
    ]
    /// The subcommands that only group others: the options go after the one chosen (`sync push`).
    private static let groups = ["sync"]
    /// The store options that are flags.
    private static let flags = ["--session-fallback"]

    /// `arguments` (without the program's name) with the store options before the first other
    /// word moved after it; unchanged when none comes first, or when a leading word is not a store
    /// option (ArgumentParser then reports it as before).
    static func moved(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let word = arguments[index]
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            if flags.contains(word) || (valued.contains(name) && word.contains("=")) {
                leading.append(word)
                index += 1
            } else if valued.contains(word), index + 1 < arguments.endIndex {
                leading += arguments[index...index + 1]
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.endIndex, !arguments[index].hasPrefix("-") else { return arguments }
        var end = index + 1
        if groups.contains(arguments[index]), end < arguments.endIndex, !arguments[end].hasPrefix("-") { end += 1 }
        return Array(arguments[index..<end]) + leading + arguments[end...]
    }
}

/// One store option read from a helper's command line: the git and docker credential helpers
/// read their options by hand, not through ArgumentParser, whose set-up is start time the
/// client waits for on every call.
extension StoreSettings {
    /// Reads the option at `words[index]` (`--name value`, `--name=value`, or a flag) into these
    /// settings and moves `index` past it and its value.
    ///
    /// - Parameters:
    ///   - ownFlags: the helper's own flags beside the store options (the docker helper's `--sync`);
    ///     one of them is returned for the caller to act on, and changes no setting.
    ///   - usage: the helper's usage failure for a reason (it names the helper and its actions).
    /// - Returns: the flag of `ownFlags` read, else `nil`.
    /// - Throws: `usage(reason)` for an unknown option, a flag given a value, or a value missing.
    package mutating func readOption(
        from words: [String], at index: inout Int, ownFlags: [String] = [],
        usage: (String) -> CommandFailure
    ) throws -> String? {
        let word = words[index]
        index += 1
        // Split at the first "=" byte: "=" and a combining mark after it are one Character.
        let equals = word.utf8.firstIndex(of: UInt8(ascii: "="))
        // Cut as bytes, at an ASCII byte: a String subscript would round to a Character's start.
        let name = equals.map { String(decoding: word.utf8[..<$0], as: UTF8.self) } ?? word
        if ownFlags.contains(name) || Self.flagOptionNames.contains(name) {
            guard equals == nil else { throw usage("\(name) takes no value") }
            if ownFlags.contains(name) { return name }
            _ = setFlag(name)
            return nil
        }
        guard Self.valueOptionNames.contains(name) else { throw usage("unknown option \(name)") }
        if let equals {
            _ = set(name, to: String(decoding: word.utf8[word.utf8.index(after: equals)...], as: UTF8.self))
        } else {
            guard index < words.count else { throw usage("\(word) needs a value") }
            _ = set(name, to: words[index])
            index += 1
        }
        return nil
    }
}

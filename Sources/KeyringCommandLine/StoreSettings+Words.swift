/// The store options as command-line words: the one list of their names that the tool's
/// own reader (`CommandLineShortcut`) and the git credential helper read, and that
/// `StoreOptions` declares for ArgumentParser (`StoreOptionNamesTests` holds the three
/// together, so an option added to one and not the others fails a test).
extension StoreSettings {
    /// The store options that take a value (`--name value` or `--name=value`), in `StoreOptions`' order.
    package static let valueOptionNames = [
        "--service", "--backend", "--etcd-endpoints", "--sync-store", "--file", "--prompt-timeout", "--collection",
    ]
    /// The store options that are flags.
    package static let flagOptionNames = ["--session-fallback"]

    /// Sets the option called `name` to `value`; `false`, changing nothing, for a name not in ``valueOptionNames``.
    package mutating func set(_ name: String, to value: String) -> Bool {
        switch name {
        case "--service": service = value
        case "--backend": backend = value
        case "--etcd-endpoints": etcdEndpoints = value
        case "--sync-store": syncStore = value
        case "--file": file = value
        case "--prompt-timeout": promptTimeout = value
        case "--collection": collection = value
        default: return false
        }
        return true
    }

    /// Turns on the flag called `name`; `false`, changing nothing, for a name not in ``flagOptionNames``.
    package mutating func setFlag(_ name: String) -> Bool {
        switch name {
        case "--session-fallback": sessionFallback = true
        default: return false
        }
        return true
    }
}

extension KeyringError: CustomStringConvertible {
    /// One sentence a person understands, naming the store that failed where
    /// it is known and what to do where there is something to do.
    public var description: String {
        switch code {
        case .notFound:
            return "No record is stored under the key \"\(key ?? "")\"\(inPlace)."
        case .invalidRecord:
            return "Invalid \(field ?? "record")\(inPlace): \(reason ?? "")."
        case .invalidConfiguration:
            return "Invalid \(setting ?? "setting")\(place.map { " for \($0.store)" } ?? ""): \(reason ?? "")."
        case .serviceUnavailable:
            return "\(Self.capitalized(store(or: "the keyring"))) is unavailable: \(unavailability?.description ?? "")."
        case .locked:
            if place == .secretService || place == nil {
                return "\(Self.capitalized(place == nil ? "the keyring" : "the Secret Service collection")) is locked; "
                    + "unlock it (for example by logging in to the desktop) and try again."
            }
            return "\(Self.capitalized(store(or: "the keyring"))) is locked."
        case .promptDismissed:
            return "The unlock prompt\(ofPlace) was dismissed."
        case .confirmationDismissed:
            return "The confirmation to store the new item\(inPlace) was dismissed; nothing was stored."
        case .promptTimedOut:
            return
                "Nobody answered the unlock prompt\(ofPlace) to \(operation ?? "") within \(seconds.map(Self.format) ?? "?") s."
        case .timedOut:
            return "\(Self.capitalized(store(or: "the keyring"))) did not answer \(operation ?? "") "
                + "within \(seconds.map(Self.format) ?? "?") s."
        case .passphraseRequired:
            return "\(Self.capitalized(store(or: "the keyring file"))) needs a passphrase; give one through "
                + (sources ?? []).joined(separator: ", ") + "."
        case .wrongPassphrase:
            if place == .secretService {
                // Only `unlock` sends the Secret Service a password: the daemon refused it.
                return "The password does not unlock the Secret Service collection; it stays locked."
            }
            return "The passphrase or key does not open \(store(or: "the keyring file"))."
        case .damaged:
            return "The \(place?.item ?? "stored data") is damaged: \(reason ?? ""); it was left as it is."
        case .insecurePermissions:
            return "Refusing to use \(path ?? "")\(place.map { " (\($0.store))" } ?? ""): \(reason ?? "")."
        case .backend:
            return "Keyring backend error\(inPlace) (\(backendDomain ?? "") \(backendCode ?? 0)): \(backendMessage ?? "")"
        default:
            return "\(Self.capitalized(store(or: "the keyring"))) failed (\(code))."
        }
    }

    /// " in the etcd keyring", or nothing when the place is not known.
    private var inPlace: String { place.map { " in \($0.store)" } ?? "" }

    /// " of the Secret Service", or nothing when the place is not known.
    private var ofPlace: String { place.map { " of \($0.store)" } ?? "" }

    private func store(or unknown: String) -> String { place?.store ?? unknown }

    private static func capitalized(_ words: String) -> String {
        words.prefix(1).uppercased() + words.dropFirst()
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

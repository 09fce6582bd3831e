import ArgumentParser

/// How long `unlock --for` keeps the file's key: `90s`, `30m`, `1h`, `2d`, `1h30m`, or plain seconds.
struct UnlockDuration: ExpressibleByArgument, CustomStringConvertible {
    /// The duration asked for.
    let duration: Duration
    /// The words it was given as, echoed back in messages.
    let description: String

    /// The longest a key is kept, as the session keyring's timeout allows it.
    static let longest = UnlockDuration(duration: .seconds(30 * 86_400), description: "30d")

    /// The default: one hour.
    static let oneHour = UnlockDuration(duration: .seconds(3600), description: "1h")

    private init(duration: Duration, description: String) {
        self.duration = duration
        self.description = description
    }

    /// Reads `90s`, `30m`, `1h`, `2d`, their sums such as `1h30m`, or a count of seconds; `nil` for anything else.
    init?(argument: String) {
        if let seconds = Int(argument) {
            self.init(duration: .seconds(seconds), description: argument)
            return
        }
        var total = 0
        var digits = ""
        for character in argument {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            let unit: Int
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3600
            case "d": unit = 86_400
            default: return nil
            }
            guard let count = Int(digits), count <= 1_000_000 else { return nil }
            total += count * unit
            digits = ""
        }
        guard digits.isEmpty, !argument.isEmpty else { return nil }
        self.init(duration: .seconds(total), description: argument)
    }

    /// What `--help` shows.
    static var defaultValueDescription: String { "1h" }
}

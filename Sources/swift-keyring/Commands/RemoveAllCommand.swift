import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

/// `swift-keyring remove-all [--yes]`
struct RemoveAllCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-all",
        abstract: "Remove every record of the service, and nothing of any other service or program.",
        discussion: """
            Asks for confirmation on a terminal; without one, --yes is required.

              swift-keyring remove-all --service com.example.mail --yes
            """
    )

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingFailures {
            let service = store.resolvedService
            if !yes {
                guard Terminal.isInteractive else {
                    throw CommandFailure(
                        message: "remove-all needs --yes when standard input is not a terminal; nothing was removed.",
                        status: ExitStatus.usage
                    )
                }
                guard Terminal.confirm("Remove every record of the service \"\(service)\"?") else {
                    throw CommandFailure(message: "Nothing was removed.", status: ExitStatus.notFound)
                }
            }
            let count = try KeyringOpener.open(store).removeAll()
            Console.output("Removed \(count) record\(count == 1 ? "" : "s") of \(service).")
        }
    }
}

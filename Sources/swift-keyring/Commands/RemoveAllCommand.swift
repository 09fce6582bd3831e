import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

/// `swift-keyring remove-all [--yes] [--this-machine]`
struct RemoveAllCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-all",
        abstract: "Remove every record of the service, and nothing of any other service or program.",
        discussion: """
            Asks for confirmation on a terminal; without one, --yes is required. With a shared \
            store (--sync-store), the synced records are removed for every host; --this-machine \
            empties only this machine's store ("log out of this host").

              swift-keyring remove-all --service com.example.mail --yes
              swift-keyring remove-all --sync-store etcd --this-machine --yes
            """
    )

    @Flag(help: "Do not ask for confirmation.")
    var yes = false

    @Flag(name: .customLong("this-machine"), help: "Remove only this machine's records; leave the shared store's.")
    var thisMachine = false

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
                let scope = thisMachine ? " on this machine" : ""
                guard Terminal.confirm("Remove every record of the service \"\(service)\"\(scope)?") else {
                    throw CommandFailure(message: "Nothing was removed.", status: ExitStatus.notFound)
                }
            }
            let count = try KeyringOpener.open(store).removeAll(thisMachineOnly: thisMachine)
            Console.output(
                "Removed \(count) record\(count == 1 ? "" : "s") of \(service)\(thisMachine ? " on this machine" : "").")
        }
    }
}

import ArgumentParser
import KeyringCommandLine
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `swift-keyring doctor [--json]`
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Show which store is chosen and why, what the Secret Service and the file look like, and library versions.",
        discussion: """
            Needs no passphrase and reads no record, so it is safe to run when something fails.

              swift-keyring doctor
              swift-keyring doctor --json | jq .store
            """
    )

    @Flag(help: "Print one JSON object instead of lines.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() throws {
        try reportingFailures {
            let selection = try store.selection()
            let sync = try store.syncSetting()
            let report = try DoctorReport.gather(
                store.configuration(), selection: selection, sync: sync,
                etcd: selection.kind == .etcd || sync.store == .etcd ? store.etcdConfiguration() : nil)
            // The owner's program name and etcd's version and health are the peers' words.
            let lines = report.lines.map(PrintableField.escaped)
            Console.output(json ? try JSONOutput.encode(report) : lines.joined(separator: "\n"))
        }
    }
}

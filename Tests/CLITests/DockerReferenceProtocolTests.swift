import Foundation
import KeyringTestSupport
import Testing

/// The same store, get, list and erase sequences through Debian's `docker-credential-secretservice`
/// (golang-docker-credential-helpers, the reference) and through this helper, on the same
/// gnome-keyring, give the same answers: what the Go client library reads is the contract.
@Suite("docker credential helper against the reference")
struct DockerReferenceProtocolTests {
    /// One step and what each helper answered: standard output and status.
    struct Answer: Equatable, CustomStringConvertible {
        var output: String
        var status: Int32
        var description: String { "status \(status), \(output.debugDescription)" }
    }

    @Test("store, get, list, replace, erase, not found: the same bytes and statuses as docker-credential-secretservice")
    func sameAnswers() throws {
        let sandbox = try Sandbox()
        let environment = try DockerHelperStore.secretService.environment(sandbox)
        let ours = DockerHelperClient(environment: environment)
        var reference = ours
        reference.program = "/usr/bin/docker-credential-secretservice"
        let server = DockerHelperClient.uniqueServer()
        let hub = "https://\(UUID().uuidString.prefix(8).lowercased()).example.com/v1/"
        let tokenServer = DockerHelperClient.uniqueServer()
        let servers = [server, hub, tokenServer]
        defer {
            for helper in [ours, reference] { for name in servers { _ = try? helper.run("erase", input: name) } }
        }

        let steps: [(String, String?)] = [
            ("get", server),
            ("store", #"{"ServerURL":"\#(server)","Username":"alice","Secret":"pw & <one> \"quoted\" é"}"#),
            ("get", server),
            ("get", "  \(server)\n"),
            ("store", #"{"ServerURL":"\#(hub)","Username":"bob","Secret":"hub-pw"}"#),
            ("store", #"{"ServerURL":"\#(tokenServer)","Username":"<token>","Secret":"identity-token"}"#),
            ("get", tokenServer),
            ("get", hub),
            ("get", String(hub.dropLast())),
            // The same user's new secret. (With another username the reference keeps a second item and
            // answers with the first; this helper keeps one login per server, as docker's own file does.)
            ("store", #"{"ServerURL":"\#(server)","Username":"alice","Secret":"replaced"}"#),
            ("get", server),
            ("erase", server),
            ("get", server),
            ("erase", server),
        ]
        for (action, input) in steps {
            let theirs = try reference.run(action, input: input)
            let mine = try ours.run(action, input: input)
            #expect(
                Answer(output: mine.text, status: mine.status) == Answer(output: theirs.text, status: theirs.status),
                "\(action) \(input ?? "")")
        }
        // list: the reference lists every login it holds on this keyring; compared on this test's servers.
        let theirList = try reference.list().filter { servers.contains($0.key) }
        #expect(try ours.list().filter { servers.contains($0.key) } == theirList)
        #expect(theirList == [hub: "bob", tokenServer: "<token>"])

        // A missing username: both refuse with a non-zero status (the words are each helper's own).
        let noUser = #"{"ServerURL":"\#(server)","Secret":"x"}"#
        #expect(try reference.run("store", input: noUser).status != 0)
        #expect(try ours.run("store", input: noUser).status != 0)
    }
}

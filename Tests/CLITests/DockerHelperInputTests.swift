import Foundation
import KeyringTestSupport
import Testing

/// What a client (or anything posing as one) sends that the helper refuses: a clear line
/// naming the member and the reason on standard output, where the clients read it, a
/// non-zero status, no value quoted back, and nothing stored changed.
@Suite("docker credential helper input")
struct DockerHelperInputTests {
    static let refusedStores: [(String, Data, String)] = [
        ("malformed JSON", Data("ServerURL=new.example.com".utf8), "not the JSON object"),
        ("a JSON array", Data("[\"new.example.com\"]".utf8), "not the JSON object"),
        ("an object cut short", Data("{\"ServerURL\":\"new.example.com\",\"Username\":\"new\"".utf8), "not the JSON object"),
        ("a missing ServerURL", Data("{\"Username\":\"new\",\"Secret\":\"new-pw\"}".utf8), "ServerURL is missing"),
        ("a missing Username", Data("{\"ServerURL\":\"kept.example.com\",\"Secret\":\"new-pw\"}".utf8), "Username is missing"),
        ("a missing Secret", Data("{\"ServerURL\":\"kept.example.com\",\"Username\":\"new\"}".utf8), "Secret is missing"),
        (
            "an empty Username", Data("{\"ServerURL\":\"kept.example.com\",\"Username\":\"\",\"Secret\":\"new-pw\"}".utf8),
            "Username is empty"
        ),
        (
            "a Secret that is a number", Data("{\"ServerURL\":\"kept.example.com\",\"Username\":\"new\",\"Secret\":42}".utf8),
            "Secret must be a JSON string"
        ),
        (
            "a line feed in the server",
            Data("{\"ServerURL\":\"kept.example.com\\nnew\",\"Username\":\"new\",\"Secret\":\"new-pw\"}".utf8),
            "ServerURL holds a control character"
        ),
        (
            "CR/LF in the server",
            Data("{\"ServerURL\":\"kept.example.com\\r\\n\",\"Username\":\"new\",\"Secret\":\"new-pw\"}".utf8),
            "ServerURL holds a control character"
        ),
        (
            "a NUL in the username",
            Data("{\"ServerURL\":\"kept.example.com\",\"Username\":\"new\\u0000\",\"Secret\":\"new-pw\"}".utf8),
            "Username holds a NUL"
        ),
        (
            "a Secret that is not UTF-8",
            Data("{\"ServerURL\":\"kept.example.com\",\"Username\":\"new\",\"Secret\":\"new-pw".utf8) + Data([0xFF, 0x22, 0x7D]),
            "Secret is not UTF-8"
        ),
        (
            "a 2 MiB secret",
            Data(
                "{\"ServerURL\":\"kept.example.com\",\"Username\":\"new\",\"Secret\":\"\(String(repeating: "n", count: 2 << 20))\"}"
                    .utf8),
            "Secret is longer than the 65536 bytes"
        ),
        (
            "text after the object",
            Data("{\"ServerURL\":\"kept.example.com\",\"Username\":\"new\",\"Secret\":\"new-pw\"} new".utf8),
            "more after the JSON object"
        ),
    ]

    @Test("Bad store input is refused, naming the member; nothing stored changes", arguments: DockerHelperStore.allCases)
    func refusedStores(store: DockerHelperStore) throws {
        let sandbox = try Sandbox()
        let helper = DockerHelperClient(environment: try store.environment(sandbox))
        // The kept login has a server of its own; every refused input names it, or a new one.
        let kept = DockerHelperClient.uniqueServer()
        defer { _ = try? helper.run("erase", input: kept) }
        try #require(try helper.store(kept, "kept", "kept-pw").status == 0)
        let before = try helper.list()
        for (reason, input, message) in Self.refusedStores {
            var body = input
            // As bytes: the input may be no UTF-8 on purpose.
            if let range = body.range(of: Data("kept.example.com".utf8)) { body.replaceSubrange(range, with: Data(kept.utf8)) }
            let result = try helper.run("store", inputBytes: body)
            #expect(result.status == 65, "\(reason) was taken (status \(result.status))")
            #expect(result.text.hasPrefix("Refused the input: ") && result.text.contains(message), "\(reason): \(result.text)")
            #expect(
                !result.allOutputContains("new-pw") && !result.allOutputContains("nnnn"), "\(reason): a value was quoted back")
            #expect(try helper.get(kept) == DockerHelperClient.Login("kept", "kept-pw"), "\(reason) changed the kept login")
        }
        #expect(try helper.list() == before, "a refused store changed what is listed")
    }

    @Test("Bad servers for get and erase are refused, naming ServerURL; the login stays", arguments: DockerHelperStore.allCases)
    func refusedServers(store: DockerHelperStore) throws {
        let sandbox = try Sandbox()
        let helper = DockerHelperClient(environment: try store.environment(sandbox))
        let kept = DockerHelperClient.uniqueServer()
        defer { _ = try? helper.run("erase", input: kept) }
        try #require(try helper.store(kept, "kept", "kept-pw").status == 0)
        let inputs: [(String, Data, String)] = [
            ("nothing", Data(), "ServerURL is missing"),
            ("a carriage return inside", Data("\(kept)\rx".utf8), "control character"),
            ("a line feed inside", Data("\(kept)\nx".utf8), "control character"),
            ("a NUL", Data("\(kept)\0".utf8), "control character"),
            ("bytes that are not UTF-8", Data(kept.utf8) + Data([0xFF]), "not UTF-8"),
            ("over 64 KiB", Data(String(repeating: "k", count: 70_000).utf8), "longer than the 65536 bytes"),
        ]
        for action in ["get", "erase"] {
            for (reason, input, message) in inputs {
                let result = try helper.run(action, inputBytes: input)
                #expect(result.status == 65, "\(action) took \(reason)")
                #expect(result.text.contains(message), "\(action), \(reason): \(result.text)")
            }
        }
        #expect(try helper.get(kept) == DockerHelperClient.Login("kept", "kept-pw"))
    }
}

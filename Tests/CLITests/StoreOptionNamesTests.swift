import ArgumentParser
import Foundation
import KeyringCommandLine
import KeyringTestSupport
import Testing

/// A command of the store options alone, to ask ArgumentParser which options they are.
private struct StoreOptionsOnly: ParsableCommand {
    @OptionGroup var store: StoreOptions
}

/// One list of store options (`StoreSettings.valueOptionNames` and `flagOptionNames`) serves
/// the tool's ArgumentParser options, its own fast reader and the git credential helper:
/// these tests fail when an option is added to one and not the others.
@Suite("store options: one list for the tool, its fast path and the git helper")
struct StoreOptionNamesTests {
    /// The store options ArgumentParser knows, from its help: (name, takes a value).
    static var declared: [(name: String, takesValue: Bool)] {
        StoreOptionsOnly.helpMessage(columns: 1000).split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let first = words.first, first.hasPrefix("--"), first != "--help" else { return nil }
            return (String(first), words.count > 1 && words[1].hasPrefix("<"))
        }
    }

    @Test("StoreOptions declares exactly the listed options and flags, and each sets the same setting")
    func sameNames() throws {
        let declared = Self.declared
        #expect(declared.filter(\.takesValue).map(\.name).sorted() == StoreSettings.valueOptionNames.sorted())
        #expect(declared.filter { !$0.takesValue }.map(\.name).sorted() == StoreSettings.flagOptionNames.sorted())
        for name in StoreSettings.valueOptionNames {
            var listed = StoreSettings()
            let known = listed.set(name, to: "v1")
            #expect(known)
            let parsed = try StoreOptionsOnly.parse([name, "v1"]).store.settings
            #expect(parsed == listed, "\(name) sets another setting in StoreOptions than in StoreSettings.set")
        }
        for name in StoreSettings.flagOptionNames {
            var listed = StoreSettings()
            let known = listed.setFlag(name)
            #expect(known)
            #expect(try StoreOptionsOnly.parse([name]).store.settings == listed, "\(name) sets another setting")
        }
    }

    /// A value for each store option that the file store takes; an option added without one fails here.
    static func sample(_ name: String, _ sandbox: Sandbox) -> String? {
        [
            "--service": "git-credential", "--backend": "file", "--etcd-endpoints": "http://127.0.0.1:1",
            "--sync-store": "none", "--file": sandbox.keyringFile.path, "--prompt-timeout": "30", "--collection": "login",
        ][name]
    }

    @Test("The git helper takes every store option of the tool, as --name value and --name=value")
    func helperTakesEveryOption() throws {
        let sandbox = try Sandbox()
        let git = GitClient(sandbox: sandbox, storeEnvironment: sandbox.fileEnvironment())
        let input = Data("protocol=https\nhost=example.com\n".utf8)
        for (name, takesValue) in Self.declared {
            var forms = [[name]]
            if takesValue {
                let value = try #require(Self.sample(name, sandbox), "no sample value for \(name) in this test")
                forms = [[name, value], ["\(name)=\(value)"]]
            }
            for words in forms {
                let result = try Command.run(GitClient.helper, words + ["get"], environment: git.environment, stdinBytes: input)
                #expect(result.status == 0, "the helper refused \(words): \(result.stderr)")
            }
        }
    }

    @Test("The helper's --service puts git's records in that service, and only there")
    func helperService() throws {
        let sandbox = try Sandbox()
        let git = GitClient(sandbox: sandbox, storeEnvironment: sandbox.fileEnvironment())
        let store = try Command.run(
            GitClient.helper, ["--service", "work-git", "store"], environment: git.environment,
            stdinBytes: Data("protocol=https\nhost=example.com\nusername=alice\npassword=pw\n".utf8))
        #expect(store.status == 0, "\(store.stderr)")
        let listed = try CLI.run(["list", "--service", "work-git"], environment: git.environment)
        #expect(listed.stdout == "https://alice@example.com\talice\thttps://example.com\t-\n")
        let other = try git.helper("get", input: Data("protocol=https\nhost=example.com\n".utf8))
        #expect(other.status == 0 && other.text.isEmpty, "the default service answered another service's record")
    }
}

import Foundation
import KeyringTestSupport
import Testing

/// What git (or anything posing as git) sends that the helper refuses, and what it ignores.
@Suite("git credential helper input")
struct GitCredentialHelperInputTests {
    static let refused: [(String, Data)] = [
        ("a line without =", Data("protocol=https\nhost=example.com\nusername alice\npassword=new\n".utf8)),
        ("a NUL", Data("protocol=https\nhost=example.com\nusername=alice\npassword=new\0pw\n".utf8)),
        (
            "bytes that are not UTF-8",
            Data("protocol=https\nhost=example.com\nusername=alice\npassword=".utf8) + Data([0xFF, 0x0A])
        ),
        (
            "a value over 64 KiB",
            Data(
                "protocol=https\nhost=example.com\nusername=alice\npassword=\(String(repeating: "x", count: 64 * 1024 + 1))\n"
                    .utf8)
        ),
        ("an empty name", Data("protocol=https\nhost=example.com\nusername=alice\n=new\n".utf8)),
        ("a url without a scheme", Data("url=example.com/repo\nusername=alice\npassword=new\n".utf8)),
        ("a url whose password is not UTF-8 once decoded", Data("url=https://alice:new%FF@example.com\n".utf8)),
        ("a carriage return in the password", Data("protocol=https\nhost=example.com\nusername=alice\npassword=new\rpw\n".utf8)),
        ("a carriage return in the username", Data("protocol=https\nhost=example.com\nusername=alice\rnew\npassword=x\n".utf8)),
        ("a carriage return in the host", Data("protocol=https\nhost=example.com\rnew\nusername=alice\npassword=x\n".utf8)),
        (
            "a carriage return in the path",
            Data("protocol=https\nhost=example.com\npath=ne\rw\nusername=alice\npassword=x\n".utf8)
        ),
        ("a carriage return in the protocol", Data("protocol=https\r\r\nhost=example.com\nusername=alice\npassword=x\n".utf8)),
        (
            "a carriage return in the refresh token",
            Data("protocol=https\nhost=example.com\nusername=alice\npassword=x\noauth_refresh_token=new\rrt\n".utf8)
        ),
        ("a carriage return in an ignored attribute", Data("protocol=https\nhost=example.com\nwwwauth[]=new\rx\n".utf8)),
        (
            "an expiry that is no number",
            Data("protocol=https\nhost=example.com\nusername=alice\npassword=x\npassword_expiry_utc=new\n".utf8)
        ),
    ]

    @Test("Bad input is refused on standard error with a non-zero status, and nothing stored changes", arguments: refused)
    func refusedInput(reason: String, input: Data) throws {
        let sandbox = try Sandbox()
        let git = GitClient(sandbox: sandbox, storeEnvironment: sandbox.fileEnvironment())
        #expect(
            try git.credential("approve", ["protocol=https", "host=example.com", "username=alice", "password=kept-pw"]).status
                == 0)
        for action in ["store", "erase", "get"] {
            let result = try git.helper(action, input: input)
            #expect(result.status == 65, "\(reason) was taken by \(action)")
            #expect(result.stderr.hasPrefix("git-credential-swift-keyring: Refused git's input: "), "\(result.stderr)")
            #expect(result.text.isEmpty)
            #expect(!result.stderr.contains("new") && !result.stderr.contains("kept-pw"), "a value was quoted back")
        }
        #expect(try GitCredentialHelperTests.fill(git, ["protocol=https", "host=example.com"])! == ("alice", "kept-pw"))
    }

    @Test(
        "Unknown attributes and actions are ignored (the expiry and refresh token are kept); other protocols get no answer and store nothing"
    )
    func ignored() throws {
        let sandbox = try Sandbox()
        let git = GitClient(sandbox: sandbox, storeEnvironment: sandbox.fileEnvironment())
        let store = try git.helper(
            "store",
            input: Data(
                "capability[]=authtype\nprotocol=https\nhost=example.com\nwwwauth[]=Basic realm=\"x\"\nusername=alice\npassword=pw\npassword_expiry_utc=99999999999\noauth_refresh_token=rt\n\n"
                    .utf8))
        #expect(store.status == 0, "\(store.stderr)")
        let get = try git.helper("get", input: Data("capability[]=authtype\nprotocol=https\nhost=example.com\n".utf8))
        #expect(get.text == "username=alice\npassword=pw\npassword_expiry_utc=99999999999\noauth_refresh_token=rt\n")
        // A newer git's action: ignored, as gitcredentials(7) asks.
        #expect(try git.helper("frobnicate", input: Data("protocol=https\nhost=example.com\n".utf8)).status == 0)
        for scheme in ["ftp", "smtp", "cert"] {
            let other = "protocol=\(scheme)\nhost=example.com\nusername=alice\npassword=pw\n"
            #expect(try git.helper("store", input: Data(other.utf8)).status == 0)
            let answer = try git.helper("get", input: Data("protocol=\(scheme)\nhost=example.com\n".utf8))
            #expect(answer.status == 0 && answer.text.isEmpty)
        }
        let list = try CLI.run(["list", "--service", "git-credential"], environment: git.environment)
        #expect(list.stdout == "https://alice@example.com\talice\thttps://example.com\t-\n")
    }

    @Test("An unknown option in credential.helper is a usage error, and no password reaches standard error")
    func usage() throws {
        let sandbox = try Sandbox()
        let git = GitClient(sandbox: sandbox, storeEnvironment: sandbox.fileEnvironment())
        let result = try Command.run(
            GitClient.helper, ["--colour", "red", "get"], environment: git.environment,
            stdinBytes: Data("protocol=https\nhost=example.com\npassword=secret-pw\n".utf8))
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown option --colour"))
        #expect(!result.stderr.contains("secret-pw"))
    }

    @Test("A password in a url= line is stored percent-decoded, a password= line after it wins, and erase compares it decoded")
    func passwordInURL() throws {
        let sandbox = try Sandbox()
        let git = GitClient(sandbox: sandbox, storeEnvironment: sandbox.fileEnvironment())
        // %25 is a %, %3A a colon, %40 an @; a % without two hex digits after it stays, as git's url_decode leaves it.
        let store = try git.helper("store", input: Data("url=https://alice:p%25w%3Ad%40x%zz%4@example.com/repo\n\n".utf8))
        #expect(store.status == 0, "\(store.stderr)")
        let get = try git.helper("get", input: Data("protocol=https\nhost=example.com\npath=repo\n\n".utf8))
        let decoded = get.text == "username=alice\npassword=p%w:d@x%zz%4\n"
        #expect(decoded, "the url='s password was not stored percent-decoded")
        // A password= line after the url= is the one stored.
        let later = try git.helper(
            "store", input: Data("url=https://bob:from-url@example.com\npassword=from-line\n\n".utf8))
        #expect(later.status == 0, "\(later.stderr)")
        let bob = try git.helper("get", input: Data("protocol=https\nhost=example.com\nusername=bob\n\n".utf8))
        #expect(bob.text == "username=bob\npassword=from-line\n", "the password= line after the url= did not win")
        // erase with a url= password: the stale one removes nothing, the stored one (encoded otherwise) removes it.
        let stale = try git.helper("erase", input: Data("url=https://alice:p%25w@example.com/repo\n\n".utf8))
        #expect(stale.status == 0, "\(stale.stderr)")
        let kept = try git.helper("get", input: Data("protocol=https\nhost=example.com\npath=repo\n\n".utf8))
        #expect(kept.text.hasPrefix("username=alice\n"), "erase with another password removed the credential")
        let erase = try git.helper("erase", input: Data("url=https://alice:p%25w:d%40x%zz%4@example.com/repo\n\n".utf8))
        #expect(erase.status == 0, "\(erase.stderr)")
        let gone = try git.helper("get", input: Data("protocol=https\nhost=example.com\npath=repo\n\n".utf8))
        #expect(gone.status == 0 && gone.text.isEmpty, "erase with the url='s password left the credential")
    }
}

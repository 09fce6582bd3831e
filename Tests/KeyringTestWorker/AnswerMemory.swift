import Foundation
import HTTPTypes
import KeyringAuthentication

// Run by `AnswerMemoryTests`, so the figure is this process's alone and no other test's:
//
//   KeyringTestWorker answer-memory WARM-UP-URL URL curl|urlsession
//
// Sends one small request to WARM-UP-URL (libraries loaded, buffers made), resets the peak
// (/proc/self/clear_refs), reads the resident size, sends a GET to URL with the transport's
// default limit, and prints one line, sizes in KiB:
//
//   baseline=KiB peak=KiB after=KiB outcome=answered|answerTooLarge|timedOut|…
enum AnswerMemory {
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 3, let warmUp = URL(string: arguments[0]), let url = URL(string: arguments[1]),
            ["curl", "urlsession"].contains(arguments[2])
        else {
            FileHandle.standardError.write(Data("usage: KeyringTestWorker answer-memory WARM-UP-URL URL curl|urlsession\n".utf8))
            return 64
        }
        let transport: any HTTPTransport =
            arguments[2] == "curl" ? CurlTransport(timeout: .seconds(30)) : URLSessionTransport(timeout: .seconds(30))
        _ = try? await transport.send(HTTPRequest(method: .get, url: warmUp), body: nil)
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let baseline = status("VmRSS")
        let outcome: String
        do {
            let (response, _) = try await transport.send(HTTPRequest(method: .get, url: url), body: nil)
            outcome = "answered-\(response.status.code)"
        } catch let error as TransportError {
            outcome = error.kind.rawValue
        } catch {
            outcome = "\(type(of: error))"
        }
        let peak = status("VmHWM")
        let after = status("VmRSS")
        print("baseline=\(baseline) peak=\(peak) after=\(after) outcome=\(outcome)")
        return 0
    }

    /// A `kB` line of /proc/self/status, in KiB; -1 when it cannot be read.
    private static func status(_ field: String) -> Int {
        let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return line.flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? -1
    }
}

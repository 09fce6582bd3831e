import Foundation
import HTTPTypes
import KeyringAuthentication

// Run by `TransportLeakTests`, in a process of its own so no other test's files or threads count:
//
//   KeyringTestWorker transport-leaks URL COUNT
//
// Sends one GET to URL (libraries loaded) and counts this process's open files; sends COUNT GETs,
// each on a transport of its own as a login closure makes one, and counts its threads (the
// runtime starts some of its own lazily, while the first requests run: a baseline taken after one
// request once missed one of them); sends COUNT more the same way, waits (at most 5 s) for
// finished threads to go, and prints one line, N counting the second COUNT:
//
//   files=BEFORE,AFTER threads=BEFORE,AFTER answered=N
enum TransportLeaks {
    static func run(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 2, let url = URL(string: arguments[0]), let count = Int(arguments[1]) else {
            FileHandle.standardError.write(Data("usage: KeyringTestWorker transport-leaks URL COUNT\n".utf8))
            return 64
        }
        let request = HTTPRequest(method: .get, url: url)
        _ = try? await CurlTransport(timeout: .seconds(10)).send(request, body: nil)
        let files = entries("/proc/self/fd")
        for _ in 0..<count { _ = try? await CurlTransport(timeout: .seconds(10)).send(request, body: nil) }
        let threads = entries("/proc/self/task")
        var answered = 0
        for _ in 0..<count {
            if (try? await CurlTransport(timeout: .seconds(10)).send(request, body: nil)) != nil { answered += 1 }
        }
        // A leak stays; a transfer's thread that is still ending goes within the wait.
        let end = ContinuousClock.now + .seconds(5)
        repeat {
            try? await Task.sleep(for: .milliseconds(50))
        } while entries("/proc/self/task") > threads && ContinuousClock.now < end
        print("files=\(files),\(entries("/proc/self/fd")) threads=\(threads),\(entries("/proc/self/task")) answered=\(answered)")
        return 0
    }

    private static func entries(_ folder: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? -1
    }
}

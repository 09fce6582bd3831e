import Foundation
import HTTPTypes
import KeyringAuthentication

// Run by `TransportLeakTests`, in a process of its own so no other test's files or threads count:
//
//   KeyringTestWorker transport-leaks URL COUNT
//
// Sends one GET to URL (libraries loaded), counts this process's open files and threads, sends
// COUNT more GETs, each on a transport of its own as a login closure makes one, waits a moment
// for finished threads to go, and prints one line:
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
        let (files, threads) = (entries("/proc/self/fd"), entries("/proc/self/task"))
        var answered = 0
        for _ in 0..<count {
            if (try? await CurlTransport(timeout: .seconds(10)).send(request, body: nil)) != nil { answered += 1 }
        }
        try? await Task.sleep(for: .milliseconds(200))
        print("files=\(files),\(entries("/proc/self/fd")) threads=\(threads),\(entries("/proc/self/task")) answered=\(answered)")
        return 0
    }

    private static func entries(_ folder: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? -1
    }
}

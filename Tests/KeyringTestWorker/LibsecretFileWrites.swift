import Foundation
import SwiftKeyring

/// `KeyringTestWorker libsecret-file FILE KEY-FILE PREFIX COUNT`: as the encrypted file's
/// worker, on libsecret's keyring file, its password the key file's 32 bytes.
enum LibsecretFileWrites {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 4, let count = Int(arguments[3]) else {
            FileHandle.standardError.write(Data("usage: KeyringTestWorker libsecret-file FILE KEY-FILE PREFIX COUNT\n".utf8))
            return 64
        }
        let prefix = arguments[2]
        do {
            let store = try LibsecretFileStore(
                url: URL(fileURLWithPath: arguments[0]),
                key: .secret(.keyFile(URL(fileURLWithPath: arguments[1]))),
                lockTimeout: .seconds(60)
            )
            var index = 0
            while count == 0 || index < count {
                let key = "\(prefix)-\(index)"
                try store.save(
                    StoredRecord(
                        id: RecordID(service: "worker", key: key, kind: .credentials),
                        metadata: RecordMetadata(username: prefix, url: "https://example.com"),
                        secret: Array("secret-\(key)".utf8)
                    ))
                // Unbuffered, so the line is out before the next write starts.
                FileHandle.standardOutput.write(Data("\(key)\n".utf8))
                index += 1
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("KeyringTestWorker: \(error)\n".utf8))
            return 1
        }
    }
}

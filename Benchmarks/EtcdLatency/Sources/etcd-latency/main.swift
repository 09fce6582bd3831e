import Dispatch
import Foundation
import Keyring
import KeyringEtcd

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// etcd-latency ENDPOINTS N: stores N records and looks each up through EtcdStore, then times the
// floors from the same process: a range of an absent key through the same client (one round trip,
// nothing to decrypt), and a raw /v3/kv/range through URLSession. Prints µs/op.
let arguments = CommandLine.arguments
let endpoints = try EtcdConfiguration.parseEndpoints(arguments[1])
let count = Int(arguments[2]) ?? 1000
let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
let store = try EtcdStore(
    configuration: EtcdConfiguration(
        endpoints: endpoints, prefix: "bench-\(UUID().uuidString.prefix(6))/", secret: .key(key), environment: [:]))
let keyring = try Keyring(service: "com.example.bench", store: store)
let credentials = try Credentials(username: "bench", password: "password-123456", url: URL(string: "https://example.com")!)

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
var start = now()
for index in 0..<count { try keyring.set(credentials, forKey: "k\(index)") }
let storeUS = Double(now() - start) / 1e3 / Double(count)
start = now()
for index in 0..<count { _ = try keyring.password(forKey: "k\(index)") }
let lookupUS = Double(now() - start) / 1e3 / Double(count)
start = now()
for index in 0..<count { _ = try keyring.credentials(forKey: "k\(index)") }
let credentialsUS = Double(now() - start) / 1e3 / Double(count)

// The floor through the same client: a range of a key that is not there (one round trip, nothing to open).
start = now()
for index in 0..<count { _ = try keyring.password(forKey: "missing\(index)") }
let missUS = Double(now() - start) / 1e3 / Double(count)

// Another floor: the same linearizable range of an existing key, with no decryption, same URLSession path.
let session = URLSession(configuration: .ephemeral)
let rangeKey = try String(
    decoding: JSONSerialization.data(withJSONObject: ["key": Data("bench-floor".utf8).base64EncodedString()]), as: UTF8.self)
func post(_ path: String, _ body: String) {
    var request = URLRequest(url: endpoints[0].appendingPathComponent(path))
    request.httpMethod = "POST"
    request.httpBody = Data(body.utf8)
    let done = DispatchSemaphore(value: 0)
    session.dataTask(with: request) { _, _, _ in done.signal() }.resume()
    done.wait()
}
post(
    "v3/kv/put",
    "{\"key\":\"\(Data("bench-floor".utf8).base64EncodedString())\",\"value\":\"\(Data(repeating: 7, count: 120).base64EncodedString())\"}"
)
start = now()
for _ in 0..<count { post("v3/kv/range", rangeKey) }
let rangeUS = Double(now() - start) / 1e3 / Double(count)
_ = try keyring.removeAll()
print(
    String(
        format:
            "N=%d store %.0f µs/op | lookup: password %.0f, credentials %.0f µs/op | raw range of an absent key, same client %.0f µs/op | raw range via URLSession %.0f µs/op | lookup/raw(same client) %.2f",
        count, storeUS, lookupUS, credentialsUS, missUS, rangeUS, lookupUS / missUS))

import Foundation
import KeyringTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Raw calls to etcd's JSON gateway, for tests that tamper with what the store wrote.
enum Gateway {
    /// POSTs a JSON object and returns the answer's JSON object.
    static func post(_ endpoint: URL, _ path: String, _ body: [String: Any]) throws -> [String: Any] {
        var request = URLRequest(url: endpoint.appendingPathComponent(path), timeoutInterval: 10)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let finished = DispatchSemaphore(value: 0)
        let answer = Answer()
        URLSession.shared.dataTask(with: request) { data, _, _ in
            answer.data = data
            finished.signal()
        }.resume()
        finished.wait()
        guard let data = answer.data, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ClusterFailure("the gateway gave no JSON for \(path)")
        }
        return object
    }

    /// Every key (base64) and value (base64) under `prefix`.
    static func pairs(_ endpoint: URL, prefix: String) throws -> [(key: String, value: String)] {
        var end = Array(prefix.utf8)
        end[end.count - 1] += 1
        let answer = try post(
            endpoint, "v3/kv/range",
            [
                "key": Data(prefix.utf8).base64EncodedString(), "range_end": Data(end).base64EncodedString(),
            ])
        return (answer["kvs"] as? [[String: Any]] ?? []).compactMap { pair in
            guard let key = pair["key"] as? String, let value = pair["value"] as? String else { return nil }
            return (key, value)
        }
    }
}

/// The answer, written by URLSession's queue before the semaphore is signalled and read after.
private final class Answer: @unchecked Sendable {
    var data: Data?
}

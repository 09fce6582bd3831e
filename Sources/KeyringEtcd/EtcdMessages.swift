#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The JSON of etcd's gateway (`/v3/kv/*`, grpc-gateway over the v3 API): keys and values in
// base64, 64-bit numbers as strings, and fields at their zero value left out of answers.

/// A key or value, base64 in JSON.
struct EtcdBytes: Codable, Hashable, Sendable {
    var bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }
    init(_ text: String) { self.bytes = Array(text.utf8) }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let data = Data(base64Encoded: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not base64"))
        }
        bytes = Array(data)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Data(bytes).base64EncodedString())
    }
}

/// A 64-bit number, a string in JSON.
struct EtcdInt: Codable, Hashable, Sendable {
    var value: Int64

    init(_ value: Int64) { self.value = value }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self), let value = Int64(text) {
            self.value = value
        } else {
            self.value = try container.decode(Int64.self)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String(value))
    }
}

/// What every answer carries: the cluster it came from and the revision it was served at.
struct ResponseHeader: Decodable {
    /// An unsigned 64-bit number, kept as the string the gateway sends.
    var clusterID: String?
    var revision: EtcdInt?

    enum CodingKeys: String, CodingKey {
        case clusterID = "cluster_id"
        case revision
    }
}

struct RangeRequest: Encodable {
    var key: EtcdBytes
    var rangeEnd: EtcdBytes?
    var limit: EtcdInt?
    var keysOnly: Bool?

    enum CodingKeys: String, CodingKey {
        case key, limit
        case rangeEnd = "range_end"
        case keysOnly = "keys_only"
    }
}

struct KeyValue: Decodable {
    var key: EtcdBytes
    var value: EtcdBytes?
    var modRevision: EtcdInt?

    enum CodingKeys: String, CodingKey {
        case key, value
        case modRevision = "mod_revision"
    }
}

struct RangeResponse: Decodable {
    var header: ResponseHeader?
    var kvs: [KeyValue]?
    /// Whether keys beyond `limit` are left in the range.
    var more: Bool?
}

struct PutRequest: Encodable {
    var key: EtcdBytes
    var value: EtcdBytes
}

struct DeleteRangeRequest: Encodable {
    var key: EtcdBytes
    var rangeEnd: EtcdBytes?

    enum CodingKeys: String, CodingKey {
        case key
        case rangeEnd = "range_end"
    }
}

struct DeleteRangeResponse: Decodable {
    var header: ResponseHeader?
    var deleted: EtcdInt?
}

/// One condition of a transaction: the key's `target` compared with a value.
struct Compare: Encodable {
    var key: EtcdBytes
    var result = "EQUAL"
    /// `MOD` (the revision of the last change) or `CREATE` (the revision it was created at; 0 when absent).
    var target: String
    var modRevision: EtcdInt?
    var createRevision: EtcdInt?
    /// When set, the condition must hold for every key in `[key, rangeEnd)`.
    var rangeEnd: EtcdBytes?

    enum CodingKeys: String, CodingKey {
        case key, result, target
        case modRevision = "mod_revision"
        case createRevision = "create_revision"
        case rangeEnd = "range_end"
    }
}

struct RequestOp: Encodable {
    var requestPut: PutRequest?
    var requestRange: RangeRequest?
    var requestDeleteRange: DeleteRangeRequest?

    enum CodingKeys: String, CodingKey {
        case requestPut = "request_put"
        case requestRange = "request_range"
        case requestDeleteRange = "request_delete_range"
    }
}

struct TxnRequest: Encodable {
    var compare: [Compare]
    var success: [RequestOp]
    var failure: [RequestOp]
}

struct ResponseOp: Decodable {
    var responseRange: RangeResponse?
    var responseDeleteRange: DeleteRangeResponse?

    enum CodingKeys: String, CodingKey {
        case responseRange = "response_range"
        case responseDeleteRange = "response_delete_range"
    }
}

struct TxnResponse: Decodable {
    var header: ResponseHeader?
    var succeeded: Bool?
    var responses: [ResponseOp]?
}

struct AuthenticateRequest: Encodable {
    var name: String
    var password: String
}

struct AuthenticateResponse: Decodable {
    var token: String?
}

struct StatusResponse: Decodable {
    struct Header: Decodable {
        // Member IDs are unsigned 64-bit numbers, compared as the strings the gateway sends.
        var memberID: String?
        enum CodingKeys: String, CodingKey { case memberID = "member_id" }
    }
    var header: Header?
    var version: String?
    var leader: String?
}

struct MemberListResponse: Decodable {
    struct Member: Decodable {
        var name: String?
    }
    var members: [Member]?
}

/// What the gateway answers when a call fails: a gRPC status code and etcd's message.
struct GatewayError: Decodable {
    var error: String?
    var message: String?
    var code: Int?
}

struct Empty: Encodable {}

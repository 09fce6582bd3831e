import Glibc
import SwiftKeyring

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How an etcd cluster looks from this host: each member's answer and the member count.
/// Needs no passphrase and reads no record, so `swift-keyring doctor` can show it when a call fails.
public struct EtcdHealth: Sendable, Codable, Hashable {
    /// One member as asked on its own.
    public struct Member: Sendable, Codable, Hashable {
        /// The client URL asked.
        public var endpoint: String
        /// Whether it answered a status request.
        public var healthy: Bool
        /// Its etcd version, or why it did not answer.
        public var detail: String
        /// Whether it said it is the leader.
        public var isLeader: Bool
    }

    /// Every configured endpoint, in order.
    public var members: [Member]
    /// How many members the cluster says it has, or `nil` when no member answered.
    public var memberCount: Int?
    /// Whether the cluster served a linearizable read, as every record call needs: members that
    /// answer their status without a quorum among them do not.
    public var servesReads: Bool
    /// Why it did not, when it did not.
    public var readProblem: String?
    /// The proxy the members are reached through, or why none is: `none`, or `none (… ignored …)`
    /// when `http_proxy`, `https_proxy` or `all_proxy` is set, since the store never uses those.
    public var proxy: String?

    /// Asks every endpoint for its status, then the cluster for its members, all within
    /// `configuration.timeout`: each member gets a share of it, so one that hangs cannot
    /// keep the others from being asked.
    /// - Parameter configuration: the endpoints and credentials; no sealing secret is read.
    public static func check(_ configuration: EtcdConfiguration) -> EtcdHealth {
        let call = StoreCall.starting(timeout: configuration.timeout)
        let login = try? EtcdStore.login(configuration)
        let client = EtcdClient(
            endpoints: configuration.endpoints, timeout: configuration.timeout, login: login, tls: configuration.tls,
            proxy: configuration.proxy)
        let members = client.memberStatus(call: call).map { url, result in
            switch result {
            case .success(let status):
                let leader = status.leader != nil && status.leader == status.header?.memberID
                return Member(
                    endpoint: url.absoluteString, healthy: true, detail: "etcd \(status.version ?? "?")", isLeader: leader)
            case .failure(let error):
                return Member(endpoint: url.absoluteString, healthy: false, detail: error.description, isLeader: false)
            }
        }
        let list = try? client.call(
            "/v3/cluster/member/list", Empty(), as: MemberListResponse.self, operation: "listing members", call: call)
        // The keyring's header key, names only: what opening the store reads first, no value fetched.
        let readProblem: String?
        do {
            _ = try client.call(
                "/v3/kv/range", RangeRequest(key: EtcdKeyspace.headerKey(prefix: configuration.prefix), keysOnly: true),
                as: RangeResponse.self, operation: "a linearizable read", call: call)
            readProblem = nil
        } catch {
            readProblem = "\(error)"
        }
        return EtcdHealth(
            members: members, memberCount: list?.members?.count, servesReads: readProblem == nil, readProblem: readProblem,
            proxy: proxyNote(configuration))
    }

    /// What `proxy` says for `configuration`.
    static func proxyNote(_ configuration: EtcdConfiguration) -> String {
        if let proxy = configuration.proxyDescription { return "through \(proxy) (\(EtcdConfiguration.proxyVariable))" }
        let ignored = EtcdConfiguration.environmentProxyVariables.filter { configuration.environment[$0]?.isEmpty == false }
        guard !ignored.isEmpty else { return "none" }
        return "none (\(ignored.joined(separator: ", ")) in the environment is ignored; "
            + "set \(EtcdConfiguration.proxyVariable) to reach etcd through a proxy)"
    }
}

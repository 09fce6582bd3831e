/// A failure as etcd's JSON gateway reports it: a gRPC status code and etcd's own
/// description of the error.
///
/// Where the code alone does not tell two failures apart (etcd reports both an
/// empty user name and a refused password as `InvalidArgument`), the description
/// does: etcd defines each one as a fixed string (its `rpctypes`), and etcd's own
/// clients tell them apart by code and exact description, as this does.
struct EtcdStatus: Equatable {
    var code: Int
    var description: String

    /// The request carried no token while authentication is on.
    static let userNameEmpty = EtcdStatus(code: 3, description: "etcdserver: user name is empty")
    /// The user or password was refused.
    static let authenticationFailed = EtcdStatus(
        code: 3, description: "etcdserver: authentication failed, invalid user ID or password")

    /// gRPC's `Unauthenticated`: the token expired or was never valid.
    static let unauthenticatedCode = 16

    /// Whether a new token might make the call succeed.
    var needsNewToken: Bool {
        code == Self.unauthenticatedCode || self == .userNameEmpty
    }

    /// Whether another member, or the same one a moment later, may serve the call: the
    /// cluster is electing a leader, short of members, or busy. etcd reports all of these
    /// (no leader, leader changed, request timed out, not capable, stopped, too many
    /// requests) as `Unavailable` (14), `DeadlineExceeded` (4) or `ResourceExhausted` (8).
    func isTransient(httpStatus: Int) -> Bool {
        [14, 4, 8].contains(code) || (httpStatus >= 500 && code == 0)
    }
}

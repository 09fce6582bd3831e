import SwiftKeyring

extension EtcdClient {
    /// The first page size of a listing with values: small records fit many to a page, and a page
    /// of large ones that would pass `maximumAnswerBytes` is asked again at half the size.
    static let valuePageSize: Int64 = 64
    /// The page size of a listing of keys alone, whose answers stay far below the cap.
    static let keyPageSize: Int64 = 1000

    /// Reads every key under `prefix` (with its value unless `keysOnly`), page by page, before `deadline`.
    ///
    /// No page is larger than `maximumAnswerBytes`: one that would be is stopped at the cap and
    /// asked for again with half as many keys, down to one key, which no record makes too large.
    /// - Parameter page: called with each page's keys and values, in key order.
    /// - Returns: the revision the first page was read at.
    /// - Throws: as `call`; `.backend` when even a single key's answer passes the cap.
    @discardableResult
    func rangePages(
        under prefix: EtcdBytes, keysOnly: Bool, operation: String, call: StoreCall, _ page: ([KeyValue]) throws -> Void
    ) throws -> Int64? {
        let end = EtcdKeyspace.rangeEnd(of: prefix)
        var start = prefix
        var limit = keysOnly ? Self.keyPageSize : Self.valuePageSize
        var first: Int64?
        while true {
            let answer: RangeResponse
            do {
                answer = try self.call(
                    "/v3/kv/range",
                    RangeRequest(key: start, rangeEnd: end, limit: EtcdInt(limit), keysOnly: keysOnly ? true : nil),
                    as: RangeResponse.self, operation: operation, call: call, pageable: true)
            } catch let oversized as OversizedAnswer {
                guard limit > 1 else { throw oversized.keyringError }
                limit /= 2
                continue
            }
            let pairs = answer.kvs ?? []
            first = first ?? answer.header?.revision?.value
            try page(pairs)
            guard answer.more == true, let last = pairs.last else { return first }
            // The smallest key after the last one.
            start = EtcdBytes(last.key.bytes + [0])
        }
    }
}

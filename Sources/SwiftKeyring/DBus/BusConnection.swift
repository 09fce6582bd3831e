import Glibc
internal import KeyringCrypto

/// A connection of our own to one session bus, speaking the D-Bus wire format directly:
/// every Secret Service call, the probe, the owner question and the Secret portal go
/// through it, and no GLib, GIO or libsecret is loaded for any of them.
///
/// What it checks, so that nobody but the bus and the peer we called can answer:
/// - the socket file is this user's (`SessionBusAddress.checkOwners`), and the process
///   at the other end (`SO_PEERCRED`) runs as this user or root;
/// - a reply is taken only for a call still outstanding, and only from the connection the
///   call went to, as the bus names the sender (the bus writes that field, so nobody can
///   forge it), or an error from the bus itself; calls go to the bus or to a unique name,
///   never to a well-known name that whoever owns it at the moment would answer. Anything
///   else (any program on the bus may send replies nobody asked for: a stock dbus-daemon
///   lets it) is dropped at once, never kept for a call made later;
/// - a message longer than `maximumMessage` ends the connection before its body is read;
/// - a message's header is read first, and a message that is no reply to an outstanding
///   call from its destination, nor a signal a handler asked for (`SignalInterest`), is
///   skipped as its bytes arrive, its body never kept nor read; a reply whose type is not
///   the one its call expects is handed over with its body unread. So whatever arrives, the
///   client holds at most about one message's bytes and the values of a wanted one;
/// - every name and path a peer gives is checked where it is read (`BusNames`), and the
///   deadline is looked at before every read of the socket.
///
/// Safe to share between threads: any number of calls may be outstanding at once. Whoever
/// waits reads the socket for everyone (one reader at a time, the others wait on a
/// condition), and hands each message out in the order it came: a reply to its call,
/// a signal to every handler (`addHandler`), so a handler has seen every signal sent before
/// a reply by the time that reply is taken. Every wait is bounded by its deadline, and a
/// cancelled task (`OperationCancellation`) wakes its wait at once.
///
/// `@unchecked Sendable`: the state is read and written with `condition` held; the read
/// buffer only by the one reader; writes under `writing`.
final class BusConnection: @unchecked Sendable {
    /// The bus itself, as a message's sender and a call's destination.
    static let busName = "org.freedesktop.DBus"
    static let busPath = "/org/freedesktop/DBus"
    /// The largest message read: a secret of the sizes the library stores (16 MiB at most,
    /// see `RecordValidation`) fits, with its encryption and the message around it; a
    /// larger one ends the connection before its body is read (a hostile daemon's 60 MiB
    /// answer costs no memory).
    static let maximumMessage = RecordValidation.maximumSecretBytes + (1 << 20)

    /// This connection's unique name on the bus, as `Hello` gave it.
    private(set) var uniqueName = ""

    private let descriptor: Int32
    /// Written to wake the reader out of `poll` when a waiting task is cancelled: one end
    /// of a socket pair (Glibc's module hides eventfd), the reader polls the other.
    private let wakeup: Int32
    private let wakeupReader: Int32
    private let condition = MonotonicCondition()
    private var state = State()
    /// Held while a message is numbered and written, so serials go out in order.
    private let writing = MonotonicCondition()
    private var lastSerial: UInt32 = 0
    /// Messages sent while the connection holds its writes (`holding`), written together by
    /// `flush`: one write for a whole flight of calls. Guarded by `writing`.
    private var held: [UInt8]?
    /// What `flush` must still read of the authentication, when `init` held it: the
    /// address's guid and whether descriptor passing was asked. Guarded by `writing`.
    private var unfinishedAuthentication: (guid: String?, passingDescriptors: Bool)?
    /// What the reader has read and not yet made into messages, from `bufferStart` on (read
    /// by index: consumed bytes are dropped when the buffer empties or grows); only the reader touches it.
    private var buffer: [UInt8] = []
    private var bufferStart = 0
    /// Bytes of a dropped message still to come, skipped as they arrive; only the reader touches it.
    private var skipping = 0
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
    /// Room for the control messages a read may carry (descriptors a peer passed); only the reader touches it.
    private let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)

    /// Reads a reply's body, from a cursor over it where it lies in the receive buffer,
    /// into the typed result its call wants; the body's exact end is checked after it.
    typealias ReplyDecoder = (inout WireCursor) throws -> any Sendable

    /// A call sent and not yet taken.
    private struct Pending {
        let destination: String
        let expected: String
        let decode: ReplyDecoder?
        var reply: BusMessage?
        /// For a call to a well-known name (`OwnerQuery`): the serial of the `GetNameOwner`
        /// whose answer names the only connection its reply is taken from.
        var bound: UInt32? = nil
        /// For such a `GetNameOwner`, the name asked about: its answer is noted as soon as it is read.
        var asksOwner: String? = nil
    }

    /// What a `GetNameOwner` sent by `askOwner` was answered, noted when it is read.
    private enum OwnerAnswer {
        case named(String)
        /// No owner, an error, or an answer that is no unique name: no reply is taken.
        case none
    }

    private struct State {
        /// The calls sent and not yet taken: who must answer, the reply's signature its
        /// caller reads, how its body is read into the call's typed result (`nil`: it is
        /// not read), and the answer once it came.
        var pending: [UInt32: Pending] = [:]
        /// Whether a thread is reading the socket now.
        var reading = false
        /// Why the connection can no longer be used, once it cannot.
        var failure: KeyringError?
        var handlers: [Int: (interests: [SignalInterest], handler: (BusMessage) -> Void)] = [:]
        var lastHandler = 0
        /// The answers to owner questions still in use, by the question's serial, with the name asked.
        var owners: [UInt32: (name: String, answer: OwnerAnswer)] = [:]
    }

    /// Connects to the first `unix:` entry of `address` that accepts, checks the peer,
    /// authenticates as this user (with Unix descriptor passing when `passingDescriptors`)
    /// and says `Hello`, all before `deadline`.
    ///
    /// With `holding`, the authentication and `Hello` are not written yet: calls sent next
    /// join them, and `flush` writes them all at once and reads the bus's answers, so the
    /// calls a client makes first cost no round trip of their own.
    /// - Throws: `KeyringError.serviceUnavailable(reason: .noSessionBus)` naming what failed,
    ///   `.insecurePermissions` for a socket of another user, or `.timedOut` (with
    ///   `holding`, all but the socket's own checks are thrown by `flush`).
    init(address: String, passingDescriptors: Bool = false, holding: Bool = false, deadline: Deadline) throws {
        try SessionBusAddress.checkOwners(address)
        var connected: (Int32, UnixSocketName, String?)?
        var refusals: [String] = []
        for entry in address.split(separator: ";") where !entry.isEmpty {
            guard let name = UnixSocketName(entry: String(entry)) else {
                refusals.append("\(entry.prefix(while: { $0 != ":" })): not a transport this client speaks")
                continue
            }
            if let descriptor = try Self.connect(name, deadline: deadline, refusals: &refusals) {
                connected = (descriptor, name, Self.guid(in: String(entry)))
                break
            }
        }
        guard let (descriptor, name, guid) = connected else {
            throw KeyringError.serviceUnavailable(
                reason: .noSessionBus(detail: "could not connect to \(address): \(refusals.joined(separator: "; "))"))
        }
        self.descriptor = descriptor
        var pair: [Int32] = [-1, -1]
        let made = socketpair(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &pair)
        wakeup = pair[1]
        wakeupReader = pair[0]
        // Whatever throws from here on, `deinit` closes the sockets: every property is set.
        guard made == 0 else { throw POSIX.failure("make a socket pair for the bus connection", errno) }
        // The bus at the other end is another user's when its process is: a socket file's
        // owner was checked above, an abstract name has none.
        let peer = Self.peerUser(descriptor)
        guard let peer, peer == geteuid() || peer == 0 else {
            throw KeyringError.insecurePermissions(
                path: name.shown,
                reason: "the process listening there runs as \(peer.map(UserName.describe) ?? "an unknown user"), "
                    + "not as this user or root; its bus is not trusted with secrets")
        }
        try authenticate(guid: guid, passingDescriptors: passingDescriptors, holding: holding, deadline: deadline)
    }

    deinit {
        Glibc.close(descriptor)
        if wakeup >= 0 { Glibc.close(wakeup) }
        if wakeupReader >= 0 { Glibc.close(wakeupReader) }
        chunk.initializeMemory(as: UInt8.self, repeating: 0)
        chunk.deallocate()
        control.deallocate()
        buffer.wipe()
    }

    /// A connected non-blocking socket, `nil` when nobody listens there (with why in
    /// `refusals`); a full backlog is tried again until `deadline`.
    private static func connect(_ name: UnixSocketName, deadline: Deadline, refusals: inout [String]) throws -> Int32? {
        while true {
            let attempt = name.connected(blocking: false)
            if let descriptor = attempt.descriptor { return descriptor }
            guard attempt.code == EAGAIN, !deadline.hasPassed else {
                let reason = attempt.code == 0 ? "no socket could be made" : String(cString: strerror(attempt.code))
                refusals.append("\(name.shown): \(reason)")
                if attempt.code == EAGAIN { throw deadline.timedOut("connect to the session bus") }
                return nil
            }
            usleep(1000)
        }
    }

    /// The `guid=` of an address entry, which the server's `OK` must repeat.
    private static func guid(in entry: String) -> String? {
        guard let colon = entry.firstIndex(of: ":") else { return nil }
        for pair in entry[entry.index(after: colon)...].split(separator: ",") where pair.hasPrefix("guid=") {
            return String(pair.dropFirst(5))
        }
        return nil
    }

    /// The uid the process at the other end of `descriptor` runs as (`SO_PEERCRED`).
    /// Glibc's module hides `struct ucred` (it wants `_GNU_SOURCE`): its three fields,
    /// pid, uid and gid, are 32-bit on Linux, read here as such.
    static func peerUser(_ descriptor: Int32) -> uid_t? {
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            length == socklen_t(MemoryLayout.size(ofValue: credentials))
        else { return nil }
        return credentials.uid
    }

    /// `EXTERNAL` with our uid, descriptor passing when asked, `BEGIN` and `Hello`, sent in
    /// one write (the bus reads them in order, as sd-bus sends them), then the bus's lines
    /// and `Hello`'s reply: one round trip in all. With `holding`, the write and the reads
    /// wait for `flush`.
    private func authenticate(guid: String?, passingDescriptors: Bool, holding: Bool, deadline: Deadline) throws {
        let uid = String(getuid()).utf8.lowercaseHex
        var lines = "AUTH EXTERNAL \(uid)\r\n"
        if passingDescriptors { lines += "NEGOTIATE_UNIX_FD\r\n" }
        lines += "BEGIN\r\n"
        var hello = message(
            serial: 1, destination: Self.busName, path: Self.busPath, interface: Self.busName, member: "Hello",
            signature: "", arguments: [], descriptors: 0, autoStart: true)
        lastSerial = 1
        state.pending[1] = Pending(destination: Self.busName, expected: "s", decode: { try $0.string() })
        hello = [0] + Array(lines.utf8) + hello
        if holding {
            held = hello
            unfinishedAuthentication = (guid, passingDescriptors)
            return
        }
        try write(hello, descriptors: [], deadline: deadline)
        try readAuthentication(guid: guid, passingDescriptors: passingDescriptors, deadline: deadline)
    }

    /// The bus's lines and `Hello`'s reply, which come before any other message.
    private func readAuthentication(guid: String?, passingDescriptors: Bool, deadline: Deadline) throws {
        try readLine(expecting: "OK", guid: guid, deadline: deadline)
        if passingDescriptors { try readLine(expecting: "AGREE_UNIX_FD", guid: nil, deadline: deadline) }
        let reply = try reply(to: 1, "connect to the session bus", deadline: deadline)
        guard reply.kind == .methodReturn, reply.signature == "s", let name = reply.decoded as? String else {
            throw KeyringError.serviceUnavailable(
                reason: .noSessionBus(detail: "the bus answered Hello with \(reply.errorName ?? "no name")"))
        }
        uniqueName = try BusNames.uniqueName(name, "Hello")
    }

    /// Reads one line of the authentication exchange, which must start with `expecting`.
    private func readLine(expecting: String, guid: String?, deadline: Deadline) throws {
        var line: [UInt8] = []
        while true {
            if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                line = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                break
            }
            guard buffer.count < 512 else { throw authenticationFailure("an answer line longer than 512 bytes") }
            guard !deadline.hasPassed, try fill(deadline: deadline) else {
                throw deadline.timedOut("connect to the session bus")
            }
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        let text = String(decoding: line, as: UTF8.self)
        let words = text.split(separator: " ")
        guard words.first.map(String.init) == expecting else {
            throw authenticationFailure("the bus answered \"\(text.prefix(80))\" where \(expecting) was due")
        }
        // The address names the server it means: an OK without that guid is another server's.
        if let guid {
            guard words.count > 1 else { throw authenticationFailure("the server gave no guid, where the address names \(guid)") }
            guard String(words[1]) == guid else {
                throw authenticationFailure("the server's guid \(words[1].prefix(64)) is not the address's \(guid)")
            }
        }
    }

    private func authenticationFailure(_ detail: String) -> KeyringError {
        .serviceUnavailable(reason: .noSessionBus(detail: "authentication failed: \(detail)"))
    }

    // MARK: Calls

    /// Sends a method call and returns its serial, to wait for with `reply(to:_:deadline:)`.
    ///
    /// `destination` is the bus or a unique name (`:1.42`): the reply is taken only from it.
    /// `arguments` are written by `body` in `signature`'s order; `descriptors` travel with
    /// the message (the caller keeps and closes its own copies). `reply` is the signature
    /// the caller reads: a reply of another type is handed over with its body unread; one of
    /// that type is read by `decode` into `BusMessage.decoded` when given, no value tree made.
    /// - Throws: the connection's failure, `.timedOut` when the socket takes no more by
    ///   `deadline`, or `.backend` for a destination that is no unique name (never a trap:
    ///   destinations come from the bus's answers).
    func send(
        destination: String, path: String, interface: String, member: String, signature: String = "",
        reply expected: String, decode: ReplyDecoder? = nil, descriptors: [Int32] = [], autoStart: Bool = true,
        owner: OwnerQuery? = nil, asksOwner: String? = nil, deadline: Deadline,
        arguments body: (inout WireWriter) -> Void = { _ in }
    ) throws -> UInt32 {
        guard destination == Self.busName || BusNames.isUniqueName(destination) || destination == owner?.name else {
            throw BusFailure.invalidReply("\(member) was not sent: \"\(destination.prefix(64))\" is no unique name on the bus")
        }
        guard BusNames.isObjectPath(Array(path.utf8)[...]) else {
            throw BusFailure.invalidReply("\(member) was not sent: \"\(path.prefix(64))\" is no object path")
        }
        var arguments = WireWriter()
        body(&arguments)
        defer { arguments.wipe() }
        writing.lock()
        defer { writing.unlock() }
        lastSerial = lastSerial == UInt32.max ? 2 : lastSerial + 1
        let serial = lastSerial
        condition.lock()
        if let failure = state.failure {
            condition.unlock()
            throw failure
        }
        state.pending[serial] = Pending(
            destination: destination, expected: expected, decode: decode, bound: owner?.serial, asksOwner: asksOwner)
        condition.unlock()
        // A call to a well-known name never starts a service: the bus answers for the owner it named.
        var bytes = message(
            serial: serial, destination: destination, path: path, interface: interface, member: member,
            signature: signature, arguments: arguments.bytes, descriptors: descriptors.count,
            autoStart: autoStart && owner == nil)
        defer { bytes.wipe() }
        do {
            if held != nil {
                // Descriptors travel on a write of their own, after what was held.
                guard !descriptors.isEmpty else {
                    held!.append(contentsOf: bytes)
                    return serial
                }
                try writeHeld(deadline: deadline)
            }
            try write(bytes, descriptors: descriptors, deadline: deadline)
        } catch {
            // Part of a message may be on the socket: nothing after it could be read right.
            fail(error as? KeyringError ?? closed("writing to the bus failed"))
            throw error
        }
        return serial
    }

    /// Waits for the reply to call `serial` (a method return or an error, as sent), and
    /// stops waiting for it either way.
    /// - Throws: `.timedOut(operation:…)` when `deadline` passes, `CancellationError` for a
    ///   cancelled task, or the connection's failure.
    func reply(to serial: UInt32, _ operation: String, deadline: Deadline) throws -> BusMessage {
        defer { forget(serial) }
        var answer: BusMessage?
        try wait(operation, deadline: deadline) {
            answer = state.pending[serial]?.reply
            return answer != nil
        }
        return answer!
    }

    /// Stops waiting for `serial`: a reply that still comes is dropped.
    func forget(_ serial: UInt32) {
        condition.lock()
        state.pending[serial] = nil
        // An owner's answer is kept while its question or a call bound to it waits.
        if !state.owners.isEmpty {
            state.owners = state.owners.filter { question, _ in
                state.pending[question] != nil || state.pending.values.contains { $0.bound == question }
            }
        }
        condition.unlock()
    }

    // MARK: Flights of calls

    /// Starts holding writes: every call sent until `flush` goes out with it in one write.
    func hold() {
        writing.lock()
        if held == nil { held = [] }
        writing.unlock()
    }

    /// Writes what was held since `init(holding:)` or `hold()` in one write, then, after
    /// `init(holding: true)`, reads the bus's answer to the authentication and `Hello`.
    /// - Throws: as `init` for the authentication, or the write's errors.
    func flush(deadline: Deadline) throws {
        writing.lock()
        let authentication = unfinishedAuthentication
        unfinishedAuthentication = nil
        let written = Result { try writeHeld(deadline: deadline) }
        writing.unlock()
        do {
            try written.get()
        } catch {
            fail(error as? KeyringError ?? closed("writing to the bus failed"))
            throw error
        }
        if let authentication {
            do {
                try readAuthentication(
                    guid: authentication.guid, passingDescriptors: authentication.passingDescriptors, deadline: deadline)
            } catch {
                // Nothing after a failed authentication can be read right.
                fail(error as? KeyringError ?? closed("\(error)"))
                throw error
            }
        }
    }

    /// Runs `body`, whose calls go out together in one write when it returns (or throws):
    /// a peer reads them as one flight, and the caller waits for one round trip.
    func sendingTogether<Sent>(deadline: Deadline, _ body: () throws -> Sent) throws -> Sent {
        hold()
        let sent = Result { try body() }
        try flush(deadline: deadline)
        return try sent.get()
    }

    /// Writes and drops what was held, with `writing` held.
    private func writeHeld(deadline: Deadline) throws {
        guard var bytes = held else { return }
        held = nil
        defer { bytes.wipe() }
        try write(bytes, descriptors: [], deadline: deadline)
    }

    /// A `GetNameOwner` sent by `askOwner`: calls sent with it go to its well-known `name`,
    /// and their replies are taken only from the unique name its answer gives.
    struct OwnerQuery: Sendable {
        /// The well-known name asked about, such as `org.freedesktop.secrets`.
        let name: String
        let serial: UInt32
    }

    /// Asks the bus who owns `name` and returns at once. Calls sent next with the question
    /// (`send(…owner:)`) go to `name` flagged NO_AUTO_START: the bus answers `GetNameOwner`
    /// itself before it routes the next message of this connection, so its answer comes
    /// before any reply of the owner's. A reply to a bound call is taken only once that
    /// answer is in and only from the unique name it gave (or as an error from the bus);
    /// anyone else's, before or after, is dropped unread. With `watching`, a match rule for the
    /// name's `NameOwnerChanged` goes first: a change of owner after the answer then ends
    /// the bound calls still waiting with an error, rather than a wait to their deadline for
    /// the old owner (the new one's replies are dropped like anyone else's).
    func askOwner(_ name: String, watching: Bool = false, deadline: Deadline) throws -> OwnerQuery {
        if watching { try sendMatchRule("AddMatch", Self.nameOwnerChangedRule(name), deadline: deadline) }
        let serial = try send(
            destination: Self.busName, path: Self.busPath, interface: Self.busName, member: "GetNameOwner",
            signature: "s", reply: "s", decode: BasicReplies.string, asksOwner: name, deadline: deadline
        ) { $0.string(name) }
        return OwnerQuery(name: name, serial: serial)
    }

    /// Notes the answer to an owner question as it is read, before any message after it is
    /// looked at: that answer decides whose replies the bound calls take.
    private func noteOwnerAnswer(_ message: BusMessage) {
        guard message.kind == .methodReturn || message.kind == .error, let serial = message.replySerial else { return }
        condition.lock()
        defer { condition.unlock() }
        guard let pending = state.pending[serial], let name = pending.asksOwner, state.owners[serial] == nil,
            accepts(message, pending)
        else { return }
        let named = (message.kind == .methodReturn ? message.decoded as? String : nil).flatMap {
            BusNames.isUniqueName($0) ? $0 : nil
        }
        state.owners[serial] = (name, named.map(OwnerAnswer.named) ?? OwnerAnswer.none)
    }

    /// Ends the calls bound to an owner that `change` says left its name, with the lock held:
    /// they went to whoever owned the name when the bus routed them, perhaps the new owner,
    /// whose replies are not taken. Each gets an error of the bus's, as if the owner had gone.
    private func noteOwnerChange(_ change: NameOwnerChange) {
        for (question, entry) in state.owners where entry.name == change.name {
            guard case .named(let owner) = entry.answer, owner == change.oldOwner else { continue }
            state.owners[question] = (entry.name, .none)
            for (serial, pending) in state.pending where pending.bound == question && pending.reply == nil {
                var error = BusMessage(kind: .error, serial: 0)
                error.replySerial = serial
                error.sender = Self.busName
                error.errorName = "org.freedesktop.DBus.Error.ServiceUnknown"
                error.signature = "s"
                error.errorText =
                    "\(change.name) changed owner (\(owner) left it\(change.newOwner.isEmpty ? "" : " to \(change.newOwner)"))"
                    + " before it answered"
                state.pending[serial]?.reply = error
            }
        }
    }

    /// Whether `message`, a reply or an error, answers `pending` from where it must come,
    /// asked with the lock held: from the call's destination, or the bus's error; for a call
    /// bound to an owner question, only once the answer is in, and from the owner it named.
    private func accepts(_ message: BusMessage, _ pending: Pending) -> Bool {
        guard pending.reply == nil else { return false }
        guard let question = pending.bound else {
            return message.sender == pending.destination || message.kind == .error && message.sender == Self.busName
        }
        switch state.owners[question]?.answer {
        case nil: return false
        case .named(let owner)?: return message.sender == owner || message.kind == .error && message.sender == Self.busName
        case .none?: return message.kind == .error && message.sender == Self.busName
        }
    }

    /// Calls `handler`, with the connection's lock held, for every signal read from now
    /// on that matches one of `interests`, in the order they came; it must not call the
    /// connection. A signal no handler is interested in is never read past its header. Returns its id.
    func addHandler(for interests: [SignalInterest], _ handler: @escaping (BusMessage) -> Void) -> Int {
        condition.lock()
        defer { condition.unlock() }
        state.lastHandler += 1
        state.handlers[state.lastHandler] = (interests, handler)
        return state.lastHandler
    }

    /// Removes a handler; it is never called after this returns.
    func removeHandler(_ id: Int) {
        condition.lock()
        state.handlers[id] = nil
        condition.unlock()
    }

    /// Reads the bus until `done` (asked with the lock held, so it may read what handlers
    /// wrote under it) answers true.
    /// - Throws: as `reply(to:_:deadline:)`.
    func wait(_ operation: String, deadline: Deadline, until done: () -> Bool) throws {
        let cancellation = OperationCancellation.current
        let registration = cancellation?.register { [self] in wake() }
        defer { cancellation?.unregister(registration) }
        condition.lock()
        defer { condition.unlock() }
        while !done() {
            if let failure = state.failure { throw failure }
            if cancellation?.isCancelled == true { throw CancellationError() }
            if deadline.hasPassed { throw deadline.timedOut(operation) }
            if state.reading {
                condition.wait(for: deadline.remaining)
                continue
            }
            state.reading = true
            condition.unlock()
            let read = Result { try readMessages(deadline: deadline) }
            condition.lock()
            state.reading = false
            switch read {
            case .success(let messages): messages.forEach(dispatch)
            case .failure(let error): fail(error as? KeyringError ?? closed("\(error)"), locked: true)
            }
            condition.broadcast()
        }
    }

    /// Hands a message to whoever waits for it, with the lock held: a reply to its call if
    /// it came from where the call went (or is the bus's error), a signal to every handler.
    private func dispatch(_ message: BusMessage) {
        switch message.kind {
        case .methodReturn, .error:
            guard let serial = message.replySerial, let pending = state.pending[serial], accepts(message, pending)
            else { return }
            state.pending[serial]?.reply = message
        case .signal:
            if message.sender == Self.busName, let change = message.decoded as? NameOwnerChange {
                noteOwnerChange(change)
            }
            for (interests, handler) in state.handlers.values
            where interests.contains(where: { $0.matches(message, bodyRead: message.bodyRead) }) {
                handler(message)
            }
        case .methodCall:
            // Nobody calls this client's objects; a peer that does waits for its own timeout.
            break
        }
    }

    /// Wakes every wait, for a cancelled task to see it is cancelled.
    private func wake() {
        var one: UInt8 = 1
        _ = Glibc.write(wakeup, &one, 1)
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Marks the connection unusable: every wait, now and later, throws `failure`.
    private func fail(_ failure: KeyringError, locked: Bool = false) {
        if !locked { condition.lock() }
        if state.failure == nil { state.failure = failure }
        condition.broadcast()
        if !locked { condition.unlock() }
    }

    private func closed(_ detail: String) -> KeyringError {
        .serviceUnavailable(reason: .noSessionBus(detail: "the session bus connection closed: \(detail)"))
    }

    // MARK: The socket

    /// The whole wanted messages the socket has now, or none when `deadline` passed or a
    /// wait was woken. The deadline is looked at before every read: bytes that keep
    /// trickling in never stretch it.
    private func readMessages(deadline: Deadline) throws -> [BusMessage] {
        var messages: [BusMessage] = []
        while true {
            switch try nextMessage() {
            case .message(let message):
                messages.append(message)
                continue
            case .skipped:
                continue
            case .needsBytes:
                break
            }
            if !messages.isEmpty || deadline.hasPassed { return messages }
            guard try fill(deadline: deadline) else { return [] }
        }
    }

    /// What the receive buffer gave.
    private enum Next {
        case message(BusMessage)
        /// Bytes were consumed (a dropped message, or part of one) and none handed over.
        case skipped
        case needsBytes
    }

    /// Takes the next message off the receive buffer, reading its header first: a message
    /// nobody waits for is skipped unread, a wanted one's body is read only as far as its
    /// taker needs (`Wanted`).
    private func nextMessage() throws -> Next {
        let available = buffer.count - bufferStart
        if skipping > 0 {
            guard available > 0 else { return .needsBytes }
            let count = min(skipping, available)
            skipping -= count
            consume(count)
            return .skipped
        }
        let lengths: WireFrame.Lengths
        do {
            guard let read = try WireFrame.lengths(in: buffer, at: bufferStart, maximum: Self.maximumMessage) else {
                return .needsBytes
            }
            lengths = read
        } catch let refused as WireFrame.Refused {
            throw KeyringError.backend(
                domain: BusFailure.limitsExceededDomain, code: 0,
                message: "the bus sent \(refused.reason); the connection was closed")
        }
        guard lengths.bodyStart <= WireFrame.maximumHeader else { return skip(lengths.total) }
        guard available >= lengths.bodyStart else { return .needsBytes }
        // A message of a broken peer is dropped: the frame around it was sound.
        guard let header = try? WireFrame.header(in: buffer, at: bufferStart, lengths: lengths) else {
            return skip(lengths.total)
        }
        let wanted = self.wanted(header.message)
        switch wanted {
        case .none:
            return skip(lengths.total)
        case .header:
            // Handed over now, its body skipped as it comes: never held.
            _ = skip(lengths.total)
            noteOwnerAnswer(header.message)
            return .message(header.message)
        case .errorMessage, .typed:
            break
        }
        guard available >= lengths.total else {
            // Room for the whole message at once, rather than doubling as it arrives.
            compact()
            buffer.reserveCapacity(lengths.total)
            return .needsBytes
        }
        var message = header.message
        defer { consume(lengths.total) }
        if case .typed(let decode) = wanted {
            do {
                let bodyStart = bufferStart + lengths.bodyStart
                var cursor = WireCursor(
                    buffer, from: bodyStart, to: bufferStart + lengths.total, littleEndian: header.littleEndian)
                message.decoded = try decode(&cursor)
                try cursor.end()
                message.bodyRead = true
            } catch {
                // A signal that breaks the wire format (or is not what its handler reads) is
                // dropped; a reply becomes the caller's error at once, rather than a wait to its deadline.
                guard message.kind == .methodReturn else { return .skipped }
                message = Self.invalidReply(to: message)
            }
        } else {
            message.errorText = WireFrame.errorMessage(of: header, in: buffer, at: bufferStart)
        }
        noteOwnerAnswer(message)
        return .message(message)
    }

    /// The error its caller gets for a reply whose body breaks the wire format (a length, a
    /// padding byte, UTF-8, an object path or a signature the specification forbids).
    private static func invalidReply(to reply: BusMessage) -> BusMessage {
        var error = BusMessage(kind: .error, serial: reply.serial)
        error.replySerial = reply.replySerial
        error.sender = reply.sender
        error.errorName = BusFailure.invalidReplyDomain
        error.signature = "s"
        error.errorText =
            "a reply of type (\(reply.signature)) that breaks the D-Bus wire format (a length, padding, "
            + "UTF-8 text, an object path or a signature)"
        return error
    }

    /// How much of a message its taker reads.
    private enum Wanted {
        /// Nobody: it is skipped.
        case none
        /// The header only: a reply of another type than its call reads, or a signal whose
        /// handler needs only who sent it.
        case header
        /// An error's first argument, its message.
        case errorMessage
        /// The body, read by its call's or handler's decoder into its typed result.
        case typed(ReplyDecoder)
    }

    /// How much of `message`, its header read, anyone waits for, asked with the lock held:
    /// as `dispatch` will hand it out.
    private func wanted(_ message: BusMessage) -> Wanted {
        condition.lock()
        defer { condition.unlock() }
        switch message.kind {
        case .methodReturn, .error:
            guard let serial = message.replySerial, let pending = state.pending[serial], accepts(message, pending)
            else { return .none }
            if message.kind == .error { return .errorMessage }
            guard message.signature == pending.expected else { return .header }
            // A call sent without a reader reads no body.
            return pending.decode.map(Wanted.typed) ?? .header
        case .signal:
            // A change of the owner a question named, for `noteOwnerChange`.
            if SignalInterest.nameOwnerChanged.matches(message, bodyRead: true),
                state.owners.values.contains(where: { if case .named = $0.answer { true } else { false } })
            {
                return .typed { try NameOwnerChange.read(&$0) }
            }
            var wanted = Wanted.none
            for (interests, _) in state.handlers.values {
                for interest in interests where interest.matches(message, bodyRead: true) {
                    if interest.signature != nil, let decode = interest.decode { return .typed(decode) }
                    wanted = .header
                }
            }
            return wanted
        case .methodCall:
            // Nobody calls this client's objects; a peer that does waits for its own timeout.
            return .none
        }
    }

    /// Skips the message of `total` bytes at the buffer's start, as much of it as is there now.
    private func skip(_ total: Int) -> Next {
        skipping = total
        let count = min(skipping, buffer.count - bufferStart)
        skipping -= count
        consume(count)
        return .skipped
    }

    /// Marks `count` bytes read; an emptied buffer is wiped (it held replies, secrets among
    /// them) and, when a large message had grown it, given back.
    private func consume(_ count: Int) {
        bufferStart += count
        guard bufferStart == buffer.count else { return }
        buffer.wipe()
        buffer.removeAll(keepingCapacity: buffer.capacity <= chunk.count * 2)
        bufferStart = 0
    }

    /// Drops the bytes already read from the buffer's front, wiped first.
    private func compact() {
        guard bufferStart > 0 else { return }
        _ = buffer.withUnsafeMutableBytes { raw in
            UnsafeMutableRawBufferPointer(rebasing: raw[0..<bufferStart]).initializeMemory(as: UInt8.self, repeating: 0)
        }
        buffer.removeFirst(bufferStart)
        bufferStart = 0
    }

    /// Reads what the socket has into `buffer`; `false` when `deadline` passed or a wait
    /// was woken first. Descriptors that come along are closed: this client takes none.
    private func fill(deadline: Deadline) throws -> Bool {
        var watched = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeupReader, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&watched, 2, max(0, deadline.remainingMilliseconds))
        if ready < 0 && errno != EINTR { throw closed(String(cString: strerror(errno))) }
        if watched[1].revents != 0 {
            var drained = [UInt8](repeating: 0, count: 64)
            _ = Glibc.read(wakeupReader, &drained, drained.count)
            return false
        }
        guard ready > 0, watched[0].revents != 0 else { return false }
        // The consumed front goes before the buffer grows, so it never grows for bytes already read.
        if bufferStart > 0 && buffer.count + chunk.count > buffer.capacity { compact() }
        var vector = iovec(iov_base: chunk.baseAddress, iov_len: chunk.count)
        var header = msghdr()
        let count = withUnsafeMutablePointer(to: &vector) { vector -> Int in
            header.msg_iov = vector
            header.msg_iovlen = 1
            header.msg_control = control.baseAddress
            header.msg_controllen = control.count
            return recvmsg(descriptor, &header, Int32(MSG_CMSG_CLOEXEC))
        }
        if count < 0 {
            // A failed read passed no descriptors: the control buffer still holds an earlier
            // read's numbers, closed then and perhaps reused since, and is not looked at.
            if errno == EAGAIN || errno == EINTR { return true }
            throw closed(String(cString: strerror(errno)))
        }
        closeDescriptors(in: header)
        guard count > 0 else { throw closed("the bus closed it") }
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        // The scratch held what was read (secrets among it): only the buffer keeps it, wiped when consumed.
        UnsafeMutableRawBufferPointer(rebasing: chunk[0..<count]).initializeMemory(as: UInt8.self, repeating: 0)
        return true
    }

    /// Closes every descriptor a peer passed with the read that filled `header`: none is
    /// ever used, and a kept one would leak. The control buffer is zeroed after, so no
    /// number in it is ever closed twice.
    private func closeDescriptors(in header: msghdr) {
        defer { control.initializeMemory(as: UInt8.self, repeating: 0) }
        let length = min(header.msg_controllen, control.count)
        guard length >= MemoryLayout<cmsghdr>.size, let control = header.msg_control else { return }
        var offset = 0
        while offset + MemoryLayout<cmsghdr>.size <= length {
            let entry = (control + offset).load(as: cmsghdr.self)
            guard entry.cmsg_len >= MemoryLayout<cmsghdr>.size, offset + entry.cmsg_len <= length else { return }
            if entry.cmsg_level == SOL_SOCKET && entry.cmsg_type == Int32(SCM_RIGHTS) {
                let data = control + offset + MemoryLayout<cmsghdr>.size
                for index in 0..<(entry.cmsg_len - MemoryLayout<cmsghdr>.size) / 4 {
                    Glibc.close(data.load(fromByteOffset: index * 4, as: Int32.self))
                }
            }
            offset += (entry.cmsg_len + 7) & ~7
        }
    }

    /// Writes `bytes`, with `descriptors` on its first byte, waiting for room until `deadline`.
    private func write(_ bytes: [UInt8], descriptors: [Int32], deadline: Deadline) throws {
        try DescriptorPassing.withControl(descriptors) { passing in
            var sent = 0
            while sent < bytes.count {
                let count = DescriptorPassing.send(descriptor, bytes, from: sent, control: passing)
                if count < 0 {
                    guard errno == EAGAIN || errno == EINTR else { throw closed(String(cString: strerror(errno))) }
                    var watched = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    guard !deadline.hasPassed, poll(&watched, 1, deadline.remainingMilliseconds) >= 0 || errno == EINTR
                    else {
                        throw deadline.timedOut("write to the session bus")
                    }
                    continue
                }
                sent += count
            }
        }
    }

    /// A method call's bytes: the fixed header, the fields, padding, and the arguments.
    private func message(
        serial: UInt32, destination: String, path: String, interface: String, member: String, signature: String,
        arguments: [UInt8], descriptors: Int, autoStart: Bool
    ) -> [UInt8] {
        var message = WireWriter()
        // Little-endian, a method call, NO_AUTO_START (2) when asked, protocol version 1.
        for byte in [UInt8(ascii: "l"), 1, autoStart ? 0 : 2, 1] { message.byte(byte) }
        message.uint32(UInt32(arguments.count))
        message.uint32(serial)
        message.array(elementAlignment: 8) { fields in
            func field(_ code: UInt8, _ type: String, _ body: (inout WireWriter) -> Void) {
                fields.fields { field in
                    field.byte(code)
                    field.variant(type, body)
                }
            }
            field(1, "o") { $0.string(path) }
            field(2, "s") { $0.string(interface) }
            field(3, "s") { $0.string(member) }
            field(6, "s") { $0.string(destination) }
            if !signature.isEmpty { field(8, "g") { $0.signature(signature) } }
            if descriptors > 0 { field(9, "u") { $0.uint32(UInt32(descriptors)) } }
        }
        message.align(8)
        return message.bytes + arguments
    }
}

import Glibc
internal import KeyringCrypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// xdg-desktop-portal's Secret portal (`org.freedesktop.portal.Secret`): the key of
/// libsecret's own file store inside a Flatpak or Snap sandbox.
///
/// The portal hands each app a secret of its own (64 random bytes, kept by the
/// portal's backend, gnome-keyring's login keyring here; one shared secret for an
/// app outside a sandbox, whose app id is empty). It is written to a pipe the caller
/// passes with `RetrieveSecret`; the portal then answers on a request object with
/// `Response`. libsecret uses the 64 bytes as the password of
/// `$XDG_DATA_HOME/keyrings/default.keyring`, so the same bytes open the same file here.
enum SecretPortal {
    static let busName = "org.freedesktop.portal.Desktop"
    static let objectPath = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Secret"
    /// The one interface version libsecret (0.20.5 on) uses the portal at; any other and it keeps to the Secret Service.
    static let version: UInt32 = 1
    /// How many bytes the portal writes, and libsecret insists on.
    static let keyLength = 64
    /// What a person or a log reads for the portal.
    static let name = "the Secret portal (org.freedesktop.portal.Secret on org.freedesktop.portal.Desktop)"

    /// Whether the Secret portal answers on a bus, as libsecret asks it before choosing its file.
    enum Availability: Sendable, Hashable, CustomStringConvertible {
        /// The portal answers, at the version libsecret uses; `owner` is its unique bus name.
        case available(owner: String)
        /// No portal to use; `reason` says why (no bus, no portal, no Secret backend, another version).
        case unavailable(reason: String)

        var description: String {
            switch self {
            case .available: return "\(SecretPortal.name) answers at version \(SecretPortal.version)"
            case .unavailable(let reason): return "no Secret portal: \(reason)"
            }
        }
    }

    /// Asks the session bus of `environment` whether the Secret portal answers, within `timeout`.
    ///
    /// The bus may start the portal to answer (D-Bus activation), as libsecret lets it.
    /// The portal is then called at its owner's unique name, as the bus names it.
    static func probe(timeout: Duration, environment: [String: String]) -> Availability {
        let deadline = Deadline(timeout)
        do {
            let bus = try BusConnection(address: try SessionBusAddress.resolve(environment), deadline: deadline)
            return .available(owner: try owner(on: bus, deadline: deadline))
        } catch {
            return .unavailable(reason: (error as? KeyringError)?.unavailability?.detail ?? "\(error)")
        }
    }

    /// The portal's unique bus name, after checking it serves the Secret interface at `version`.
    /// - Throws: `.serviceUnavailable(.noSecretPortal)` saying why not, or `.timedOut`.
    static func owner(on bus: BusConnection, deadline: Deadline) throws -> String {
        let owner: String
        let reply: PropertyValue
        do {
            owner = try bus.startedOwner(busName, deadline: deadline)
            reply = try BusObject(bus: bus, destination: owner, path: objectPath).properties.get(
                interface, "version", deadline: deadline, decode: BasicReplies.property
            ).value(asked: "ask \(name) for its version", deadline: deadline)
        } catch let error as KeyringError where error.code == .serviceUnavailable {
            throw unavailable("no xdg-desktop-portal on the session bus (\(error.unavailability?.detail ?? "\(error)"))")
        } catch let error as KeyringError where error.code == .backend {
            // xdg-desktop-portal leaves the interface out when no backend implements
            // org.freedesktop.impl.portal.Secret, and answers InvalidArgs.
            throw unavailable(
                "xdg-desktop-portal answers but has no Secret backend (\(error.backendMessage ?? "\(error)")); "
                    + "gnome-keyring provides one")
        }
        guard case .uint32(let answered) = reply else {
            throw unavailable("its version is not of type u")
        }
        guard answered == version else {
            throw unavailable("it is at version \(answered); libsecret and this library use version \(version) only")
        }
        return owner
    }

    /// The portal's secret for this app: `keyLength` bytes in secure memory.
    ///
    /// Every wait has a bound: connecting and the calls wait at most `timeout`; the
    /// portal's answer and the bytes on the pipe at most `responseTimeout`, since a
    /// backend may ask the person first (gnome-keyring's unlocks its login keyring
    /// without asking). The pipe is never read to its end: the portal and its
    /// backend may keep their copies of the write end open, so the end may never come.
    /// - Throws: `.serviceUnavailable(.noSessionBus)`; `.serviceUnavailable(.noSecretPortal)`
    ///   naming the reason (no portal, no Secret backend, the backend failed, too few bytes);
    ///   `.promptDismissed` when the person cancelled; `.timedOut` naming the portal.
    static func retrieveKey(timeout: Duration, responseTimeout: Duration, environment: [String: String]) throws
        -> SecureBytes
    {
        let deadline = Deadline(timeout)
        let bus = try BusConnection(
            address: try SessionBusAddress.resolve(environment), passingDescriptors: true, deadline: deadline)
        let owner = try owner(on: bus, deadline: deadline)
        let pipe = try PortalPipe()
        // Watched before the call: the answer may come as soon as the call returns.
        let watch = try PortalResponseWatch(on: bus, portal: owner, deadline: deadline)
        let request = try retrieveSecret(on: bus, portal: owner, writeEnd: pipe.takeWriteEnd(), deadline: deadline)
        let answerDeadline = Deadline(responseTimeout)
        let answer: UInt32?
        do {
            answer = try watch.wait(for: request, asked: "wait for \(name) to answer", deadline: answerDeadline)
        } catch {
            closeRequest(request, on: bus, portal: owner)
            throw error
        }
        guard let response = answer else {
            throw unavailable("xdg-desktop-portal left the session bus before it answered")
        }
        switch response {
        case 0:
            return try pipe.read(count: keyLength, deadline: answerDeadline, what: name)
        case 1:
            throw KeyringError.promptDismissed
        default:
            throw unavailable(
                "its Secret backend gave no secret (response \(response)); the portal's log says why, "
                    + "such as a missing or locked login keyring")
        }
    }

    /// Sends `RetrieveSecret` with the pipe's write end, which it closes once sent; returns
    /// the request's object path.
    private static func retrieveSecret(on bus: BusConnection, portal: String, writeEnd: Int32, deadline: Deadline) throws
        -> String
    {
        // Ours must not keep the pipe open: the message carried a copy to the portal.
        defer { close(writeEnd) }
        // The token names the request object, so the answer can be told from others'.
        let token = "swift_keyring_\(UInt32.random(in: .min ... .max))"
        return try BusObject(bus: bus, destination: portal, path: objectPath).send(
            interface, "RetrieveSecret", signature: "ha{sv}", reply: "o", descriptors: [writeEnd], deadline: deadline,
            decode: BasicReplies.path
        ) {
            // The descriptor's index among those the message carries.
            $0.uint32(0)
            $0.properties([("handle_token", "s", { $0.string(token) })])
        }.value(asked: "ask \(name) for the app's secret", deadline: deadline)
    }

    /// Asks the portal to drop a request we stopped waiting for, without waiting long for it.
    private static func closeRequest(_ request: String, on bus: BusConnection, portal: String) {
        let deadline = Deadline(.milliseconds(500))
        _ = try? BusObject(bus: bus, destination: portal, path: request).send(
            "org.freedesktop.portal.Request", "Close", reply: "", autoStart: false, deadline: deadline,
            decode: BasicReplies.none
        ).value(asked: "close the portal's request", deadline: deadline)
    }

    private static func unavailable(_ reason: String) -> KeyringError {
        .serviceUnavailable(reason: .noSecretPortal(detail: reason))
    }
}

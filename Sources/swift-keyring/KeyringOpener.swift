import Foundation
import Keyring

/// Opens the keyring the options describe.
enum KeyringOpener {
    static func open(_ options: StoreOptions) throws -> Keyring {
        try Keyring(service: options.resolvedService, configuration: options.configuration())
    }
}

// Calls the iOS 5-6 retrieval API on purpose, through a protocol, so the tests that check it build without warnings.
import CoreBluetooth
import Foundation

/// The deprecated CBCentralManager retrieval calls under names that are not deprecated (a call through the
/// protocol is not a use of the deprecated declaration).
protocol DeprecatedRetrieval {
    /// `retrievePeripherals(_:)` (iOS 5-6): delivers `centralManager(_:didRetrievePeripherals:)`.
    func retrieveOld(_ identifiers: [Any])
    /// `retrieveConnectedPeripherals()` (iOS 5-6): delivers `centralManager(_:didRetrieveConnectedPeripherals:)`.
    func retrieveConnectedOld()
}

extension CBCentralManager: DeprecatedRetrieval {
    @available(*, deprecated)
    func retrieveOld(_ identifiers: [Any]) { retrievePeripherals(identifiers) }
    @available(*, deprecated)
    func retrieveConnectedOld() { retrieveConnectedPeripherals() }
}

extension CBCentralManager {
    /// The deprecated calls, reached without a deprecation warning at the call site.
    var deprecated: any DeprecatedRetrieval { self }
}

// Exchange MTU: offer our receive MTU, settle ATT_MTU as the smaller of both.
import OCBCore
import OCBATT

/// Exchange MTU (Core v5.4 Vol 3 Part G §4.3.1): an Exchange MTU Request with our receive MTU; ATT_MTU becomes
/// min(Client Rx MTU, Server Rx MTU), never below the LE default of 23 (Vol 3 Part F §3.4.2.2).
struct GATTExchangeMTU: GATTProcedure {
    /// Our receive MTU, 23...517.
    let clientRxMTU: UInt16

    mutating func start() -> GATTStep<Int> { .send(.exchangeMTU(clientRxMTU: clientRxMTU)) }

    mutating func receive(_ response: GATTResponse) -> GATTStep<Int> {
        guard case .exchangeMTU(let serverRxMTU) = response else { return unexpected(response) }
        return .finished(max(23, Int(min(clientRxMTU, serverRxMTU))))
    }
}

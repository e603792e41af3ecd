// Which scan family kernel mode switches to after 0x0C Command Disallowed: only one the controller lists.

import OCBHCI
@testable import OCBHost
import Testing

@Suite struct ScanFamilyTests {
    /// Supported Commands (Core v5.4 Vol 4 Part E §7.4.2) with the given (octet, bit) pairs set.
    func supported(_ commands: [(Int, Int)]) -> SupportedCommands {
        var bytes = [UInt8](repeating: 0, count: 64)
        for (octet, bit) in commands { bytes[octet] |= UInt8(1) << UInt8(bit) }
        return SupportedCommands(bytes: bytes)
    }

    @Test func switchesOnlyToAFamilyTheControllerLists() {
        let legacyOnly = supported([(26, 2), (26, 3)])  // LE Set Scan Parameters, LE Set Scan Enable
        let both = supported([(26, 2), (26, 3), (37, 5), (37, 6)])  // and LE Set Extended Scan Parameters/Enable
        // The controller: legacy only, answering 0x0C: no switch to extended (it would answer 0x01).
        #expect(CommandFamily.legacy.otherScanFamily(supported: legacyOnly) == nil)
        #expect(CommandFamily.legacy.otherScanFamily(supported: both) == .extended)
        #expect(CommandFamily.extended.otherScanFamily(supported: both) == .legacy)
        #expect(CommandFamily.extended.otherScanFamily(supported: supported([(37, 5), (37, 6)])) == nil)
        // Half a family is no family: parameters without enable.
        #expect(CommandFamily.legacy.otherScanFamily(supported: supported([(26, 2), (26, 3), (37, 5)])) == nil)
        #expect(CommandFamily.legacy.otherScanFamily(supported: SupportedCommands(bytes: [])) == nil)
    }
}
